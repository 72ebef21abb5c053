/**
 * The answers in a continue form: `tools` (agents: ToolExecution dicts),
 * `requirements` (teams: RunRequirement dicts) or `step_requirements` (workflows, either shape).
 * Each entry answers its call with a result (`result` / `external_execution_result`), else a
 * confirmation (`confirmed` / `confirmation`, with `confirmation_note`), else user input (the
 * filled `user_input_schema`); an entry with none of them is not an answer. Parses only.
 */
import type { ToolAnswer } from '../../engine/request.js';
import { HttpError } from '../../http/errors.js';
import { formJson, type Form } from '../../http/forms.js';

const FIELDS = ['tools', 'requirements', 'step_requirements'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answers of a continue form, in the order given. */
export function toolAnswersOf(form: Form): ToolAnswer[] {
  const answers: ToolAnswer[] = [];
  for (const field of FIELDS) {
    const value = formJson(form, field);
    if (value === null) continue;
    if (!Array.isArray(value)) throw new HttpError(400, `${field} must be a JSON array`);
    for (const item of value as unknown[]) {
      if (!isObject(item)) {
        throw new HttpError(400, `Each entry of ${field} must be a JSON object`);
      }
      const answer = answerOf(item);
      if (answer !== null) answers.push(answer);
    }
  }
  return answers;
}

/** One entry's answer; null when it answers nothing. */
function answerOf(entry: Record<string, unknown>): ToolAnswer | null {
  const nested = entry['tool_execution'];
  const tool = isObject(nested) ? nested : entry;
  const toolCallId = tool['tool_call_id'];
  if (typeof toolCallId !== 'string') return null;
  const result = entry['external_execution_result'] ?? tool['result'];
  if (typeof result === 'string') {
    return { toolCallId, content: result, error: tool['tool_call_error'] === true };
  }
  const confirmed = entry['confirmation'] ?? tool['confirmed'];
  if (typeof confirmed === 'boolean') {
    const note = entry['confirmation_note'] ?? tool['confirmation_note'];
    return { toolCallId, confirmed, note: typeof note === 'string' ? note : null };
  }
  const schema = entry['user_input_schema'] ?? tool['user_input_schema'];
  if (!Array.isArray(schema)) return null;
  const values: Record<string, unknown> = {};
  for (const item of schema as unknown[]) {
    if (isObject(item) && typeof item['name'] === 'string' && item['value'] != null) {
      // defineProperty: a field named `__proto__` stays data, never the prototype.
      Object.defineProperty(values, item['name'], {
        value: item['value'],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return { toolCallId, values };
}
