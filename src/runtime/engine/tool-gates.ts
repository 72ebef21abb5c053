/**
 * Tools a run stops for: which calls pause a run and for what, the
 * ToolExecution fields a held call carries, and whether a client's answer settles a held call.
 * Pure: no I/O, no ids, no clock.
 */
import type { ToolDefinition } from '../catalogue/definitions.js';
import type { ToolAnswer } from './request.js';
import type { ToolExecution } from './tool-execution.js';

/** Why a held call waits (an approval's `pause_type`). */
export type PauseKind = 'confirmation' | 'user_input' | 'external_execution';

/** One `user_input_schema` entry of a ToolExecution. */
export interface UserInputField {
  readonly name: string;
  readonly field_type: string;
  readonly description: string | null;
  readonly value: unknown;
}

/**
 * What a call of `tool` waits for, or null when it runs at once. A tool that needs approval
 * (`approval_type: required`) and names no other kind waits for confirmation, as Agno's
 * `@approval` does.
 */
export function pauseKindOf(tool: ToolDefinition | undefined): PauseKind | null {
  if (tool === undefined) return null;
  if (tool.external_execution) return 'external_execution';
  if (tool.requires_user_input === true) return 'user_input';
  if (tool.requires_confirmation === true || tool.approval_type === 'required') {
    return 'confirmation';
  }
  return null;
}

/** What a held ToolExecution waits for, read back from its fields. */
export function pauseKindOfExecution(tool: ToolExecution): PauseKind {
  if (tool['requires_user_input'] === true) return 'user_input';
  if (tool['requires_confirmation'] === true) return 'confirmation';
  return 'external_execution';
}

/**
 * The ToolExecution fields of a call of `tool` held for `kind`: the flag of its kind, the user
 * input fields (prefilled with the model's arguments of the same name) and its approval type.
 */
export function heldFields(
  tool: ToolDefinition,
  kind: PauseKind,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return {
    requires_confirmation: kind === 'confirmation' ? true : null,
    requires_user_input: kind === 'user_input' ? true : null,
    user_input_schema:
      kind === 'user_input'
        ? (tool.user_input_schema as NonNullable<ToolDefinition['user_input_schema']>).map(
            (field): UserInputField => ({
              name: field.name,
              field_type: field.field_type,
              description: field.description,
              // Own keys only: a field named `toString` must not read the prototype.
              value: Object.hasOwn(args, field.name) ? args[field.name] : null,
            }),
          )
        : null,
    external_execution_required: kind === 'external_execution' ? true : null,
    approval_type: tool.approval_type ?? null,
  };
}

/**
 * Why `answer` does not settle a call held for `kind`, as the 400 detail of a continue; null
 * when it does. A rejection settles any call; user input must give every field a value.
 */
export function unsettledReason(
  call: { readonly toolName: string; readonly kind: PauseKind; readonly tool: ToolExecution },
  answer: ToolAnswer | undefined,
): string | null {
  if (answer !== undefined && 'confirmed' in answer && !answer.confirmed) return null;
  const name = call.toolName;
  switch (call.kind) {
    case 'confirmation':
      return answer !== undefined && 'confirmed' in answer
        ? null
        : `Tool ${name} requires confirmation, cannot continue run`;
    case 'user_input': {
      const fields = call.tool['user_input_schema'] as readonly UserInputField[];
      return answer !== undefined &&
        'values' in answer &&
        fields.every(
          (field) => Object.hasOwn(answer.values, field.name) && answer.values[field.name] != null,
        )
        ? null
        : `Tool ${name} requires user input, cannot continue run`;
    }
    case 'external_execution':
      return answer !== undefined && 'content' in answer
        ? null
        : `Tool ${name} requires external execution, cannot continue run`;
  }
}
