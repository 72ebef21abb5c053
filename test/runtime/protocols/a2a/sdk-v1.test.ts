/**
 * The unmodified @a2a-js/sdk 1.3.0 client (devDependency alias `a2a-sdk-v1`) against the
 * runtime on a real socket: with its defaults (JSON-RPC 1.0 at `…/v1`), with HTTP+JSON preferred
 * (1.0 on the shared paths), and with `legacyCompat` on (the hybrid card is still read as 1.0):
 * sendMessage, sendMessageStream, getTask and cancelTask each work.
 */
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from 'a2a-sdk-v1/client';
import t, { type Test } from 'tap';
import { contextHeader, runtimeApp } from '../../fixtures/runtime.js';

/** The protocol enums of 1.0 as the client parses them (proto enum numbers). */
const ROLE_USER = 1;
const STATE = { submitted: 1, working: 2, completed: 3, canceled: 5, inputRequired: 6 } as const;

/** The runtime listening on loopback; every request carries the signed anonymous context. */
async function listening(t: Test): Promise<{ base: string; seen: Seen[] }> {
  const rt = runtimeApp(t);
  const address = await rt.app.listen({ host: '127.0.0.1', port: 0 });
  return { base: address, seen: [] };
}

/** One request the client sent. */
interface Seen {
  readonly url: string;
  readonly headers: Headers;
}

/** A fetch that adds the gateway's signed identity and records each request. */
function gatewayFetch(seen: Seen[]): typeof fetch {
  const identity = contextHeader({
    authenticated: false,
    authorization_enabled: false,
    principal_type: 'anonymous',
  });
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(identity)) headers.set(name, value);
    seen.push({ url: String(input), headers });
    return fetch(input, { ...init, headers });
  };
}

/** A 1.3.0 client for agent `a1`'s card, built as the SDK documents it. */
async function clientFor(
  base: string,
  seen: Seen[],
  o: { preferred?: ('JSONRPC' | 'HTTP+JSON')[]; legacy?: boolean } = {},
): Promise<Client> {
  const fetchImpl = gatewayFetch(seen);
  const legacyCompat = { enabled: o.legacy === true };
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
    preferredTransports: o.preferred ?? [],
  });
  return factory.createFromUrl(`${base}/a2a/agents/a1/.well-known/agent-card.json`, '');
}

const message = (text: string, extra: { taskId?: string; contextId?: string } = {}) => ({
  messageId: `m-${text}`,
  contextId: extra.contextId ?? '',
  taskId: extra.taskId ?? '',
  role: ROLE_USER,
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

const textOf = (parts: readonly { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

const rows = [
  { name: 'defaults: JSON-RPC 1.0 at …/v1', o: {}, path: '/a2a/agents/a1/v1' },
  {
    name: 'HTTP+JSON preferred: 1.0 on the shared paths',
    o: { preferred: ['HTTP+JSON'] as const },
    path: '/a2a/agents/a1/v1/message:send',
  },
  {
    name: 'legacyCompat on: the hybrid card is read as 1.0',
    o: { legacy: true },
    path: '/a2a/agents/a1/v1',
  },
  {
    name: 'legacyCompat on, HTTP+JSON preferred',
    o: { legacy: true, preferred: ['HTTP+JSON'] as const },
    path: '/a2a/agents/a1/v1/message:send',
  },
];

for (const row of rows) {
  t.test(`the 1.3.0 client [${row.name}]: send, get, stream, cancel`, async (t) => {
    const { base, seen } = await listening(t);
    const client = await clientFor(base, seen, {
      legacy: row.o.legacy,
      preferred: row.o.preferred === undefined ? [] : [...row.o.preferred],
    });
    t.equal(client.protocolVersion, '1.0');

    const sent = await client.sendMessage({
      tenant: '',
      message: message('hello there'),
      configuration: undefined,
      metadata: undefined,
    });
    t.ok('id' in sent, 'a task');
    const task = sent as Extract<typeof sent, { id: string }>;
    t.equal(task.status?.state, STATE.completed, 'blocking by default: the run ended');
    t.equal(textOf(task.history[0]?.parts), 'Echo: hello there', 'the text reached the model');
    const sendRequest = seen.at(-1) as Seen;
    t.equal(new URL(sendRequest.url).pathname, row.path, 'sent where the card says');
    t.equal(sendRequest.headers.get('a2a-version'), '1.0');

    const polled = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    t.equal(polled.id, task.id);
    t.equal(polled.contextId, task.contextId);
    t.equal(polled.status?.state, STATE.completed);

    const events: { $case: string; value: Record<string, unknown> }[] = [];
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: message('one two three', { contextId: task.contextId }),
      configuration: undefined,
      metadata: undefined,
    })) {
      events.push(event.payload as unknown as { $case: string; value: Record<string, unknown> });
    }
    t.equal(events[0]?.$case, 'task', 'the stream opens with the task');
    const artifacts = events.filter((e) => e.$case === 'artifactUpdate');
    t.same(
      artifacts.map((e) => e.value['append']),
      [false, true, true, true],
      'one artifact: the first delta starts it, the others append',
    );
    t.equal(
      artifacts.map((e) => textOf((e.value['artifact'] as { parts: [] }).parts)).join(''),
      'Echo: one two three',
    );
    const last = events.at(-1) as { $case: string; value: { status: { state: number } } };
    t.equal(last.$case, 'statusUpdate', 'the stream closes after the terminal status');
    t.equal(last.value.status.state, STATE.completed);

    // A client tool pauses the run: input-required; cancel it.
    const paused = (await client.sendMessage({
      tenant: '',
      message: message('/tool pick_color'),
      configuration: undefined,
      metadata: undefined,
    })) as typeof task;
    t.equal(paused.status?.state, STATE.inputRequired);
    const cancelled = await client.cancelTask({ tenant: '', id: paused.id, metadata: undefined });
    t.equal(cancelled.id, paused.id);
    t.equal(cancelled.status?.state, STATE.canceled);
    t.equal(
      (await client.getTask({ tenant: '', id: paused.id, historyLength: undefined })).status?.state,
      STATE.canceled,
      'stored cancelled',
    );
    t.ok(
      seen.slice(1).every((s) => s.headers.get('a2a-version') === '1.0'),
      'every request after the card spoke 1.0',
    );
  });
}
