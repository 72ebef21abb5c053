/**
 * ToolExecution and RunRequirement dicts: what ToolCall* events, RunPaused and
 * the run output carry. ToolExecution always has every key, nulls included. Pure.
 */
import { isoSeconds } from './time.js';

/** A ToolExecution dict. */
export type ToolExecution = Readonly<Record<string, unknown>>;

/** A tool call as it starts: no result yet (a held call gets its pause fields on top). */
export function startToolExecution(call: {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly createdAt: number;
  readonly childRunId?: string;
}): ToolExecution {
  return {
    tool_call_id: call.id,
    tool_name: call.name,
    tool_args: call.args,
    tool_call_error: null,
    result: null,
    metrics: null,
    child_run_id: call.childRunId ?? null,
    stop_after_tool_call: false,
    created_at: call.createdAt,
    requires_confirmation: null,
    confirmed: null,
    confirmation_note: null,
    requires_user_input: null,
    user_input_schema: null,
    user_feedback_schema: null,
    answered: null,
    external_execution_required: null,
    external_execution_silent: null,
    approval_type: null,
    approval_id: null,
  };
}

/** The same execution finished: its result (or error message) and timing in epoch seconds. */
export function finishToolExecution(
  started: ToolExecution,
  end: {
    readonly result: string;
    readonly error: boolean;
    readonly startMs: number;
    readonly endMs: number;
  },
): ToolExecution {
  return {
    ...started,
    tool_call_error: end.error,
    result: end.result,
    metrics: {
      start_time: end.startMs / 1000,
      end_time: end.endMs / 1000,
      duration: (end.endMs - end.startMs) / 1000,
    },
  };
}

/** A RunRequirement for a paused tool call (nulls omitted). */
export function createRequirement(
  tool: ToolExecution,
  id: string,
  nowMs: number,
): Record<string, unknown> {
  return {
    id,
    created_at: isoSeconds(nowMs),
    tool_execution: tool,
    ...(tool['user_input_schema'] == null ? {} : { user_input_schema: tool['user_input_schema'] }),
  };
}
