/**
 * The unmodified @a2a-js/sdk 1.3.0 client through a real gateway (RS256 JWTs, RBAC on) in front of
 * the bundled runtime: the card names the gateway's origin, and with the SDK's defaults
 * (JSON-RPC 1.0), with HTTP+JSON preferred and with `legacyCompat` on, send, stream, get and
 * cancel all work.
 */
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from 'a2a-sdk-v1/client';
import t from 'tap';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-a2a-v1',
  db: 'runtime.db',
  agents: [
    {
      id: 'a1',
      name: 'Agent One',
      tools: [{ name: 'pick_color', description: 'Asks for a color.', external_execution: true }],
    },
  ],
};

const STATE = { completed: 3, canceled: 5, inputRequired: 6 } as const;

const message = (text: string) => ({
  messageId: `m-${text}`,
  contextId: '',
  taskId: '',
  role: 1,
  parts: [
    {
      content: { $case: 'text' as const, value: text },
      metadata: undefined,
      filename: '',
      mediaType: '',
    },
  ],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const send = (text: string) => ({
  tenant: '',
  message: message(text),
  configuration: undefined,
  metadata: undefined,
});

const rows = [
  { name: 'defaults (JSON-RPC 1.0)', legacy: false, preferred: [] as ('JSONRPC' | 'HTTP+JSON')[] },
  { name: 'HTTP+JSON preferred', legacy: false, preferred: ['HTTP+JSON' as const] },
  { name: 'legacyCompat on', legacy: true, preferred: [] as ('JSONRPC' | 'HTTP+JSON')[] },
];

t.test('the 1.3.0 client through the gateway', async (t) => {
  const { gateway } = await startRuntimeStack(t, RUNTIME);
  const token = await goodToken({ scopes: ['agents:read', 'agents:run'] });
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  for (const row of rows) {
    const legacyCompat = { enabled: row.legacy };
    const client = await new ClientFactory({
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
      preferredTransports: row.preferred,
    }).createFromUrl(`${gateway.url}/a2a/agents/a1/.well-known/agent-card.json`, '');
    const card = await client.getAgentCard();
    t.equal(
      card.supportedInterfaces[0]?.url,
      `${gateway.url}/a2a/agents/a1/v1`,
      `${row.name}: the card names the gateway`,
    );

    const task = (await client.sendMessage(send('hello'))) as {
      id: string;
      status?: { state: number };
    };
    t.equal(task.status?.state, STATE.completed, `${row.name}: send`);
    t.equal(
      (await client.getTask({ tenant: '', id: task.id, historyLength: undefined })).id,
      task.id,
      `${row.name}: get`,
    );

    const kinds: string[] = [];
    for await (const event of client.sendMessageStream(send('a b'))) {
      kinds.push(event.payload?.$case ?? '');
    }
    t.equal(kinds[0], 'task', `${row.name}: the stream opens with the task`);
    t.equal(kinds.at(-1), 'statusUpdate', `${row.name}: and closes after the terminal status`);
    t.ok(kinds.includes('artifactUpdate'), `${row.name}: the text as artifact updates`);

    const paused = (await client.sendMessage(send('/tool pick_color'))) as typeof task;
    t.equal(paused.status?.state, STATE.inputRequired, `${row.name}: a paused run`);
    const cancelled = await client.cancelTask({ tenant: '', id: paused.id, metadata: undefined });
    t.equal(cancelled.status?.state, STATE.canceled, `${row.name}: cancel`);
  }
});
