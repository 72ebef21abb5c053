/**
 * A run's OpenTelemetry span, continuing the trace of the request that started it (its
 * `traceparent`, which the gateway sets to its own upstream span), with a child span per model
 * request and per tool call, read from the run's own events (`ModelRequestStarted` …
 * `ModelRequestCompleted`, `ToolCallStarted` … `ToolCallCompleted`/`ToolCallError`), so the
 * engine itself knows nothing of tracing. Written through the global API only: unless the
 * process registered a tracer provider (`scopegate serve` does when `telemetry.tracing` is on),
 * the span does not record and the run's events are not wrapped at all.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';

/** The runtime's tracer, asked for per run: whatever provider is registered at that time. */
const tracerOf = () => trace.getTracer('scopegate-runtime');

/** What names a run on its span. */
export interface RunSpanFacts {
  readonly kind: 'agent' | 'team' | 'workflow';
  readonly entityId: string;
  readonly runId: string;
  readonly sessionId: string;
}

/** Starts the span of a run, as a child of the trace the request `headers` carry (if any). */
export function startRunSpan(headers: IncomingHttpHeaders, facts: RunSpanFacts): Span {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  return tracerOf().startSpan(
    `run ${facts.kind}`,
    {
      attributes: {
        'scopegate.entity_kind': facts.kind,
        'scopegate.entity_id': facts.entityId,
        'scopegate.run_id': facts.runId,
        'scopegate.session_id': facts.sessionId,
      },
    },
    parent,
  );
}

/**
 * `source` with `span` ended when it ends (the run's final status as an attribute; a throw marks
 * the span as an error). A span that does not record leaves `source` as it is.
 */
export function spanned<T extends RunEventLike, R extends { readonly status: string }>(
  source: AsyncGenerator<T, R, void>,
  span: Span,
): AsyncGenerator<T, R, void> {
  return span.isRecording() ? follow(source, span) : source;
}

/** The fields of a run event the child spans are read from. */
interface RunEventLike {
  readonly event: string;
  readonly [field: string]: unknown;
}

async function* follow<T extends RunEventLike, R extends { readonly status: string }>(
  source: AsyncGenerator<T, R, void>,
  span: Span,
): AsyncGenerator<T, R, void> {
  const children = childSpans(span);
  let thrown: unknown;
  try {
    let step = await source.next();
    while (step.done !== true) {
      children.see(step.value);
      yield step.value;
      step = await source.next();
    }
    span.setAttribute('scopegate.run_status', step.value.status);
    return step.value;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    thrown = error;
  } finally {
    children.endAll();
    span.end();
  }
  // Reached only from the catch above: the engine's own failure, passed on.
  throw thrown;
}

// The token counts of a finished model request, as the OpenTelemetry GenAI conventions name them.
const USAGE: readonly (readonly [string, string])[] = [
  ['input_tokens', 'gen_ai.usage.input_tokens'],
  ['output_tokens', 'gen_ai.usage.output_tokens'],
];

/** The tool call an event is about. */
function toolOf(event: RunEventLike): { readonly id: string; readonly name: string } {
  const tool = event['tool'] as { readonly tool_call_id: unknown; readonly tool_name: unknown };
  return { id: String(tool.tool_call_id), name: String(tool.tool_name) };
}

/** The run's model-request and tool-call spans, opened and closed as its events say. */
function childSpans(run: Span) {
  const parent = trace.setSpan(ROOT_CONTEXT, run);
  const tracer = tracerOf();
  // A model request, and tool calls by id, still open.
  let model: Span | null = null;
  const tools = new Map<string, Span>();
  // The last tool call completed: its error event, if any, comes right after.
  let completed: { readonly id: string; readonly span: Span } | null = null;
  return {
    see(event: RunEventLike): void {
      if (completed !== null) {
        if (event.event === 'ToolCallError' && toolOf(event).id === completed.id)
          completed.span.setStatus({ code: SpanStatusCode.ERROR });
        completed.span.end();
        completed = null;
      }
      if (event.event === 'ModelRequestStarted') {
        const name = String(event['model']);
        model = tracer.startSpan(
          `chat ${name}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': name,
              'gen_ai.provider.name': String(event['model_provider']),
            },
          },
          parent,
        );
      } else if (event.event === 'ModelRequestCompleted' && model !== null) {
        for (const [key, attribute] of USAGE) {
          const value = event[key];
          if (typeof value === 'number') model.setAttribute(attribute, value);
        }
        model.end();
        model = null;
      } else if (event.event === 'ToolCallStarted') {
        const { id, name } = toolOf(event);
        const attributes = { 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': id };
        tools.set(id, tracer.startSpan(`execute_tool ${name}`, { attributes }, parent));
      } else if (event.event === 'ToolCallCompleted') {
        const { id } = toolOf(event);
        const span = tools.get(id);
        tools.delete(id);
        if (span !== undefined) completed = { id, span };
      }
    },
    /** Ends whatever is still open (a run that paused, failed or was cancelled mid-way). */
    endAll(): void {
      completed?.span.end();
      model?.end();
      for (const span of tools.values()) span.end();
    },
  };
}
