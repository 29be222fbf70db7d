/**
 * A score as a juror types it on the scoring sheet, read against its criterion's maximum: empty (not
 * scored yet), a valid score, or invalid (not a number, or outside 0 to the maximum), with the message
 * key under `judging.portal.*` that says why. A comma is read as the decimal separator (7,5 in
 * Indonesian and Malay). An invalid score never counts in a total.
 */
export type ScoreInput =
  | { state: 'empty' }
  | { state: 'valid'; value: number }
  | { state: 'invalid'; messageKey: 'judging.portal.score_not_number' | 'judging.portal.score_out_of_range'; params: { max: number } };

/** Reads one typed score against `maximum`. */
export function readScore(text: string, maximum: number): ScoreInput {
  const trimmed = text.trim();
  if (trimmed === '') return { state: 'empty' };
  const normalised = /^[+-]?\d*,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  const value = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(normalised) ? Number(normalised) : Number.NaN;
  if (!Number.isFinite(value)) return { state: 'invalid', messageKey: 'judging.portal.score_not_number', params: { max: maximum } };
  if (value < 0 || value > maximum) return { state: 'invalid', messageKey: 'judging.portal.score_out_of_range', params: { max: maximum } };
  return { state: 'valid', value };
}

/** The valid scores of a sheet by criterion key (empty and invalid ones left out). */
export function validScores(inputs: Readonly<Record<string, ScoreInput>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, input] of Object.entries(inputs)) if (input.state === 'valid') out[key] = input.value;
  return out;
}
