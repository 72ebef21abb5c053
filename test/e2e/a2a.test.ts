/**
 * A2A through a real gateway (RS256 JWTs) in front of the bundled runtime (a real SQLite file),
 * driven by @a2a-js/sdk's own client: the agent card, send, get, cancel and stream over the
 * HTTP+JSON binding, streaming over JSON-RPC, scope refusals, user isolation, and a team reached
 * through the deprecated dynamic dispatch.
 */
import type { Message, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import t, { type Test } from 'tap';
import { bearer, send } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-a2a',
  db: 'runtime.db',
  agents: [
    { id: 'a1', name: 'Agent One', description: 'Echoes.', tools: ['add'] },
    { id: 'a2', name: 'Agent Two' },
  ],
  teams: [{ id: 't1', name: 'Team', members: ['a1', 'a2'] }],
  workflows: [{ id: 'w1', name: 'Flow', steps: [{ name: 'only', agent: 'a2' }] }],
};

/** The runtime (its own folder) behind a gateway with RS256 keys and RBAC on. */
async function stack(t: Test, authYaml: string[] = []): Promise<{ gatewayUrl: string }> {
  const { gateway } = await startRuntimeStack(t, RUNTIME, authYaml);
  return { gatewayUrl: gateway.url };
}

/** A fetch that sends `Authorization: Bearer <token>` with every request. */
function authFetch(token: string): typeof fetch {
  return (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string> | undefined), ...bearer(token) },
    });
}

/** The SDK's client for the card at `cardUrl`, preferring `transports` in that order. */
async function clientFor(
  cardUrl: string,
  token: string,
  transports: ('HTTP+JSON' | 'JSONRPC')[] = [],
): Promise<Client> {
  const fetchImpl = authFetch(token);
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl }),
      new RestTransportFactory({ fetchImpl }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    preferredTransports: transports,
  });
  // The card's full URL, with no path appended (the SDK's documented form for that).
  return factory.createFromUrl(cardUrl, '');
}

/** A user message as the SDK takes it. */
const userMessage = (text: string, extra: Partial<Message> = {}): Message => ({
  kind: 'message',
  messageId: `m-${text}`,
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});

const textOf = (task: Task): string | undefined => {
  const part = task.history?.[0]?.parts[0];
  return part?.kind === 'text' ? part.text : undefined;
};

t.test('the SDK client over HTTP+JSON: card, send, get, stream, cancel', async (t) => {
  const { gatewayUrl } = await stack(t);
  const token = await goodToken({ scopes: ['agents:read', 'agents:run'] });
  const cardUrl = `${gatewayUrl}/a2a/agents/a1/.well-known/agent-card.json`;
  const client = await clientFor(cardUrl, token, ['HTTP+JSON']);
  const card = await client.getAgentCard();
  t.match(
    card,
    {
      name: 'Agent One',
      description: 'Echoes.',
      protocolVersion: '0.3.0',
      url: `${gatewayUrl}/a2a/agents/a1/v1`,
      additionalInterfaces: [
        { transport: 'JSONRPC', url: `${gatewayUrl}/a2a/agents/a1/v1` },
        { transport: 'HTTP+JSON', url: `${gatewayUrl}/a2a/agents/a1` },
      ],
    },
    'its URLs name the gateway, as the gateway forwarded the request',
  );

  const sent = (await client.sendMessage({ message: userMessage('hello there') })) as Task;
  t.equal(sent.kind, 'task');
  t.equal(sent.status.state, 'completed');
  t.equal(textOf(sent), 'Echo: hello there');

  const polled = await client.getTask({ id: sent.id });
  t.equal(polled.id, sent.id);
  t.equal(polled.contextId, sent.contextId);
  t.equal(textOf(polled), 'Echo: hello there');

  const events: (Task | Message | TaskStatusUpdateEvent)[] = [];
  for await (const event of client.sendMessageStream({
    message: userMessage('/tool add {"a": 2, "b": 3}', { contextId: sent.contextId }),
  })) {
    events.push(event as Task | Message | TaskStatusUpdateEvent);
  }
  t.same(
    events.map((event) => event.kind),
    [
      'status-update',
      'status-update',
      'status-update',
      'message',
      'message',
      'message',
      'message',
      'status-update',
      'task',
    ],
  );
  t.match(events[1], { metadata: { agno_event_type: 'tool_call_started', tool_name: 'add' } });
  const streamed = events.at(-1) as Task;
  t.equal(streamed.contextId, sent.contextId, 'the same context: the same session');
  t.equal(textOf(streamed), 'Tool add returned: 5');

  const cancelled = await client.cancelTask({ id: streamed.id });
  t.match(cancelled, { id: streamed.id, contextId: sent.contextId, status: { state: 'canceled' } });
});

t.test('the SDK client over JSON-RPC (the preferred transport): stream, send, get', async (t) => {
  const { gatewayUrl } = await stack(t);
  const token = await goodToken({ scopes: ['teams:read', 'teams:run'] });
  const client = await clientFor(`${gatewayUrl}/a2a/teams/t1/.well-known/agent-card.json`, token);
  const events = [];
  for await (const event of client.sendMessageStream({ message: userMessage('go') }))
    events.push(event);
  t.equal(events[0]?.kind, 'status-update');
  const task = events.at(-1) as Task;
  t.equal(task.status.state, 'completed');
  t.equal(textOf(task), 'Echo: go\n\nEcho: go');
  // JSON-RPC posts every method to the card's url, the JSON-RPC endpoint `…/v1`, which serves
  // them all.
  const sent = (await client.sendMessage({ message: userMessage('x') })) as Task;
  t.equal(sent.status.state, 'completed');
  t.equal(textOf(sent), 'Echo: x\n\nEcho: x');
  const polled = await client.getTask({ id: sent.id });
  t.equal(polled.id, sent.id);
});

t.test('a workflow card does not stream: the SDK falls back to send', async (t) => {
  const { gatewayUrl } = await stack(t);
  const token = await goodToken({ scopes: ['workflows:read', 'workflows:run'] });
  const client = await clientFor(
    `${gatewayUrl}/a2a/workflows/w1/.well-known/agent-card.json`,
    token,
    ['HTTP+JSON'],
  );
  const events = [];
  for await (const event of client.sendMessageStream({ message: userMessage('topic') }))
    events.push(event);
  t.equal(events.length, 1);
  t.equal(textOf(events[0] as Task), 'Echo: topic');
});

t.test('scopes: the gateway refuses a token that lacks them', async (t) => {
  const { gatewayUrl } = await stack(t);
  const reader = await goodToken({ scopes: ['agents:read'] });
  const client = await clientFor(
    `${gatewayUrl}/a2a/agents/a1/.well-known/agent-card.json`,
    reader,
    ['HTTP+JSON'],
  );
  await t.rejects(client.sendMessage({ message: userMessage('x') }), {
    message: /Status: 403 .*Insufficient permissions\. Required scope\(s\): agents:run/,
  });
  const other = await goodToken({ scopes: ['agents:a2:read'] });
  const card = await send(gatewayUrl, {
    path: '/a2a/agents/a1/.well-known/agent-card.json',
    headers: bearer(other),
  });
  t.equal(card.status, 403, 'agents:a2:read does not read a1');
  t.same(card.json, { detail: 'Insufficient permissions. Required scope(s): agents:read' });
  const own = await send(gatewayUrl, {
    path: '/a2a/agents/a2/.well-known/agent-card.json',
    headers: bearer(other),
  });
  t.equal(own.status, 200, 'agents:a2:read reads a2');
  const none = await send(gatewayUrl, { path: '/a2a/agents/a1/.well-known/agent-card.json' });
  t.equal(none.status, 401, 'no token');
});

t.test('user isolation: one user’s task is not another’s', async (t) => {
  const { gatewayUrl } = await stack(t, ['user_isolation: true']);
  const scopes = ['agents:read', 'agents:run'];
  const cardUrl = `${gatewayUrl}/a2a/agents/a2/.well-known/agent-card.json`;
  const alice = await clientFor(cardUrl, await goodToken({ sub: 'alice', scopes }), ['HTTP+JSON']);
  const bob = await clientFor(cardUrl, await goodToken({ sub: 'bob', scopes }), ['HTTP+JSON']);
  const task = (await alice.sendMessage({ message: userMessage('mine') })) as Task;
  t.equal((await alice.getTask({ id: task.id })).id, task.id, 'the owner reads it');
  await t.rejects(bob.getTask({ id: task.id }), { message: /Status: 404 .*Run not found/ });
  await t.rejects(bob.cancelTask({ id: task.id }), { message: /Status: 404 .*Run not found/ });
  await t.rejects(bob.sendMessage({ message: userMessage('x', { contextId: task.contextId }) }), {
    message: /Status: 404 .*Session not found/,
  });
});

t.test('dynamic dispatch: a team is forwarded and runs', async (t) => {
  const { gatewayUrl } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run', 'teams:run'] });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: { ...userMessage('together'), agentId: 't1' } },
  });
  const res = await send(gatewayUrl, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body,
  });
  t.equal(res.status, 200);
  t.match(res.json, {
    id: 1,
    jsonrpc: '2.0',
    result: {
      kind: 'task',
      status: { state: 'completed' },
      history: [{ parts: [{ kind: 'text', text: 'Echo: together\n\nEcho: together' }] }],
    },
  });
  const header = await send(gatewayUrl, {
    method: 'POST',
    path: '/a2a/message/stream',
    headers: { ...bearer(token), 'content-type': 'application/json', 'x-agent-id': 'a2' },
    body: JSON.stringify({
      ...JSON.parse(body),
      method: 'message/stream',
      params: { message: userMessage('hey') },
    }),
  });
  t.equal(header.status, 200);
  t.match(header.headers['content-type'], /^text\/event-stream/);
  t.match(header.body, /"text":"Echo: hey"/);
  const coarse = await send(gatewayUrl, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: {
      ...bearer(await goodToken({ scopes: ['teams:run'] })),
      'content-type': 'application/json',
    },
    body,
  });
  t.equal(coarse.status, 403, 'the coarse agents:run gate');
});
