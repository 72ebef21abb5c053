/**
 * Run events: Agno-style stream events, an event name plus its payload. Pure
 * data; never written anywhere here — the routes render them as REST SSE, AG-UI or A2A.
 */

/** An event: its name in `event`, then the payload (null/undefined fields omitted). */
export type RunEvent = { readonly event: string; readonly [field: string]: unknown };

/** Builds an event from its name and payload parts (later parts win), dropping null fields. */
export function createEvent(event: string, ...parts: readonly Record<string, unknown>[]): RunEvent {
  return { event, ...omitNulls(Object.assign({}, ...parts) as Record<string, unknown>) };
}

/** A shallow copy without the keys whose value is null or undefined (Agno's exclude-none dicts). */
export function omitNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value != null));
}
