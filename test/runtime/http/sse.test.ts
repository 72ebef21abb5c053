/**
 * Run streams as server-sent events: the response head and the exact
 * `event: <Name>\ndata: <compact JSON>\n\n` frames, written on a real socket.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { startEventStream, writeEvent } from '../../../src/runtime/http/sse.js';

/** Serves one stream of `frames` on port 0 and returns what a client received. */
async function streamed(
  t: Test,
  frames: readonly [string, unknown][],
): Promise<{ res: IncomingMessage; body: string }> {
  const server = createServer((_req, res) => {
    startEventStream(res);
    for (const [name, data] of frames) writeEvent(res, name, data);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ res, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('the stream head: 200, event-stream, no caching, no proxy buffering', async (t) => {
  const { res, body } = await streamed(t, []);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
  t.equal(res.headers['cache-control'], 'no-cache');
  t.equal(res.headers['x-accel-buffering'], 'no');
  t.equal(body, '', 'no frames, no bytes');
});

t.test('each frame is one event line, one compact data line, a blank line', async (t) => {
  const rows: { name: string; event: string; data: unknown; frame: string }[] = [
    {
      name: 'an object',
      event: 'RunStarted',
      data: { run_id: 'r1', nested_depth: 0 },
      frame: 'event: RunStarted\ndata: {"run_id":"r1","nested_depth":0}\n\n',
    },
    {
      name: 'newlines inside strings stay escaped on one line',
      event: 'RunContent',
      data: { content: 'two\nlines\r\n\n' },
      frame: 'event: RunContent\ndata: {"content":"two\\nlines\\r\\n\\n"}\n\n',
    },
    {
      name: 'non-ASCII text is written as UTF-8',
      event: 'RunContent',
      data: { content: 'héllo — 世界' },
      frame: 'event: RunContent\ndata: {"content":"héllo — 世界"}\n\n',
    },
    {
      name: 'a nested payload',
      event: 'ToolCallCompleted',
      data: { tool: { tool_args: { a: [1, 2] }, result: null } },
      frame: 'event: ToolCallCompleted\ndata: {"tool":{"tool_args":{"a":[1,2]},"result":null}}\n\n',
    },
  ];
  for (const row of rows) {
    const { body } = await streamed(t, [[row.event, row.data]]);
    t.equal(body, row.frame, row.name);
  }
  const { body } = await streamed(
    t,
    rows.map((r) => [r.event, r.data]),
  );
  t.equal(body, rows.map((r) => r.frame).join(''), 'frames follow each other in order');
});
