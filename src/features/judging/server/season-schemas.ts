/**
 * The request and response schemas of a season's judging routes (`season-routes.ts`): eligible
 * entries, panels and declared conflicts. See `schemas.ts` for the conventions and the builders.
 */

import { arrayOf, data, id, integer, object, type Schema, text, textOrNull } from './schemas.js';

const integerOrNull = { type: ['integer', 'null'] };
const bool = { type: 'boolean' };
const kind = { type: 'string', enum: ['company', 'entry', 'brand'] };

/** How an entry came in: `approved` (Round 1), or `shortlisted` from `exam_id`. */
const source = object({ kind: { type: 'string', enum: ['approved', 'shortlisted'] }, exam_id: integerOrNull }, ['kind']);

export const examEntriesAnswer = data(
  arrayOf(
    object({
      contest_id: integer,
      code: { ...textOrNull, description: 'The blind code jurors see; null until the entry is first assigned.' },
      status: text,
      category_id: integer,
      edition_id: integerOrNull,
      source,
    }),
  ),
);

export const panelBody = object(
  { jury_ids: { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: id, description: 'The jurors on the panel (active jurors).' } },
  ['jury_ids'],
);
export const panelAnswer = data(
  object({
    exam_id: integer,
    default: { ...bool, description: "True while no panel is saved: the panel is the exam's round's active jurors." },
    jury_ids: arrayOf(integer),
    jurors: arrayOf(
      object({
        id: integer,
        name: text,
        company: textOrNull,
        round: integer,
        is_active: bool,
        on_panel: bool,
        load: integer,
        edition_load: integer,
        expertise: arrayOf(integer),
      }),
    ),
  }),
);

const conflictRecord = object({
  id: integer,
  jury_id: integer,
  kind,
  contest_id: integerOrNull,
  name: textOrNull,
  reason: text,
  declared_by: { type: 'string', enum: ['admin', 'juror'] },
  created_at: { type: 'string', format: 'date-time' },
});
export const conflictsAnswer = data(arrayOf(conflictRecord));
export const conflictAnswer = data(conflictRecord);
export const conflictBody = object(
  {
    kind,
    contest_id: { ...id, description: 'The entry (kind `entry`).' },
    name: { type: 'string', maxLength: 200, description: "The company's or brand's name (kinds `company`, `brand`)." },
    reason: { type: 'string', maxLength: 500 },
  },
  ['kind', 'reason'],
);
export const conflictParams: Schema = {
  type: 'object',
  required: ['id', 'conflictId'],
  properties: {
    id: { type: 'string', description: "The Juror's id: a positive whole number; anything else is a 400 'Invalid Juror ID'." },
    conflictId: { type: 'string', description: "The conflict's id: a positive whole number." },
  },
};

export const entryConflictBody = object({ reason: { type: 'string', maxLength: 500 } }, ['reason']);
export const entryConflictAnswer = data(
  object({
    id: integer,
    exam_id: integer,
    status: { type: 'string', enum: ['recused'] },
    recuse_reason: textOrNull,
    conflict_id: integer,
  }),
);
