/**
 * Server-sent events for run streams: `event: <Name>\ndata: <compact JSON>\n\n`.
 * Writes frames only; never decides what a run emits.
 */
import type { ServerResponse } from 'node:http';

/** Starts an event stream on a raw response. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
}

/** Writes one frame. */
export function writeEvent(res: ServerResponse, name: string, data: unknown): void {
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}
