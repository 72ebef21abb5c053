/**
 * The offline judge: deterministic, no model. An output passes when it
 * contains the expected text (an accuracy eval's expected output, an agent-as-judge eval's
 * criteria) once both are normalised; it then scores 10, else 1, with a fixed reason. Pure.
 */

/** The offline judge's verdict on one output. */
export interface JudgeVerdict {
  /** 10 when the expected text occurs in the output, else 1. */
  readonly score: number;
  /** Whether the expected text occurs in the output. */
  readonly matched: boolean;
  readonly reason: string;
}

/** The judge's fixed reasons. */
export const JUDGE_REASONS = Object.freeze({
  matched: 'Offline judge: the output contains the expected text.',
  missed: 'Offline judge: the output does not contain the expected text.',
});

/** Case-folded, with every run of whitespace one space and none at either end. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Judges `output` against `expected`. */
export function judgeOutput(output: string, expected: string): JudgeVerdict {
  const matched = normalizeText(output).includes(normalizeText(expected));
  return matched
    ? { score: 10, matched, reason: JUDGE_REASONS.matched }
    : { score: 1, matched, reason: JUDGE_REASONS.missed };
}
