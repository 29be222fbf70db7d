import { JUDGING_STATUSES } from '../shared/dashboard-contract.js';
import { EXAM_MOVES } from '../shared/exam-status.js';
import { BLIND_ENTRY_FIELDS } from './jury-portal.service.js';

/**
 * The request and response schemas of judging's routes. Fastify validates the requests with them
 * and serialises the answers from them (a field not listed here never leaves the server: the jury
 * portal's entry lists exactly its blind fields), and `GET /api/openapi.json` documents them.
 * Entity rows answered whole (an exam, an applicant) list their descriptors' fields.
 */

export type Schema = Record<string, unknown>;

const MAX_ID = 2147483647;
const TAGS = ['judging'];

/** A closed object (extra request fields are refused; extra answer fields are dropped). */
export const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
/** An answer's `{ data }` envelope. */
export const data = (schema: Schema): Schema => object({ data: schema });
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

export const integer = { type: 'integer' };
export const id = { type: 'integer', minimum: 1, maximum: MAX_ID };
export const text = { type: 'string' };
export const textOrNull = { type: ['string', 'null'] };
const time = { type: 'string', format: 'date-time' };
const timeOrNull = { type: ['string', 'null'], format: 'date-time' };
/** One criterion of a judging sheet (the exam schema's `criteria` items). */
const criterion = {
  type: 'object',
  additionalProperties: false,
  properties: { key: text, label: text, weight: { type: 'number' }, maximum: { type: 'number' }, guidance: text },
};
const criteria = {
  type: ['array', 'null'],
  items: criterion,
  description: 'The judging sheet: `{key, label, weight, maximum, guidance?}` per criterion.',
};
/** Each criterion key with its score. */
const scores = { type: ['object', 'null'], additionalProperties: { type: ['number', 'null'] }, description: 'Each criterion key with its score.' };

/**
 * A path's record id. Documented as text: the handler applies the shared rule (`7`, not `07`) and
 * answers 400 'Invalid <entity> ID' for anything else.
 */
export const idParams = (label: string, name = 'id'): Schema => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', description: `The ${label}'s id: a positive whole number; anything else is a 400 'Invalid ${label} ID'.` } },
});

/** The schema of a route: OpenAPI tags and summary, the request parts, the success answers. */
export const route = (summary: string, parts: { params?: Schema; querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema => ({
  tags: TAGS,
  summary,
  ...parts,
});

/** An answer with no body (204). */
export const noContent: Schema = { type: 'null', description: 'Done; no content.' };

// --- Exams and assignments (admins) ---

/** An exam's row as stored (its descriptor's fields). */
const examRow = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id,
    name: text,
    edition_id: { type: ['integer', 'null'] },
    category_id: integer,
    round: integer,
    max_score: integer,
    ranking: textOrNull,
    parallel_panel: { type: ['boolean', 'null'] },
    publish_remarks: { type: ['boolean', 'null'] },
    criteria,
    status: { type: 'string', enum: Object.keys(EXAM_MOVES) },
    opens_at: timeOrNull,
    closes_at: timeOrNull,
    created_at: time,
    updated_at: time,
  },
};

export const statusBody = object({ status: { type: 'string', enum: Object.keys(EXAM_MOVES) } }, ['status']);
export const statusAnswer = data(examRow);

export const autoAssignBody = object({ per_entry: { type: 'integer', minimum: 1, maximum: 20, default: 3 }, dry_run: { type: 'boolean', default: true } });
export const autoAssignAnswer = data(
  object({
    exam_id: integer,
    per_entry: integer,
    dry_run: { type: 'boolean' },
    planned: arrayOf(object({ contest_id: integer, jury_id: integer })),
    load: arrayOf(
      object({
        jury_id: integer,
        name: text,
        count: { ...integer, description: 'Live assignments in this examination after the plan.' },
        edition_count: { ...integer, description: 'Live assignments in every examination of the edition after the plan (what auto-assign balances).' },
        expert: { type: 'boolean', description: "The juror's application names the examination's category as expertise." },
      }),
    ),
    short: arrayOf(
      object({
        contest_id: integer,
        assigned: integer,
        missing: integer,
        conflicts: { ...integer, description: 'Panel jurors ruled out by a conflict of interest or a recusal.' },
        reason: { type: 'string', enum: ['panel_too_small', 'conflict_of_interest', 'not_enough_jurors'] },
      }),
    ),
    panel: object({ size: integer, default: { type: 'boolean' } }),
  }),
);

const assignmentStatus = { type: 'string', enum: ['assigned', 'in_progress', 'submitted', 'recused'] };
export const assignmentBody = object({ contest_id: id, jury_id: id }, ['contest_id', 'jury_id']);
export const assignmentAnswer = data(
  object({
    id: integer,
    exam_id: integer,
    contest_id: integer,
    jury_id: integer,
    status: assignmentStatus,
    recuse_reason: textOrNull,
    code: { type: 'string', description: "The entry's blind code in the examination." },
    created_at: time,
    updated_at: time,
  }),
);

export const matrixAnswer = data(
  object({
    exam: object({ id: integer, name: text, round: integer, status: text, category_id: integer, edition_id: { type: ['integer', 'null'] } }),
    panel: object({ default: { type: 'boolean' }, jury_ids: arrayOf(integer) }),
    entries: arrayOf(
      object({
        id: integer,
        code: { ...textOrNull, description: 'The blind code jurors see (null until first assigned).' },
        status: text,
        company: textOrNull,
        brand: textOrNull,
        eligible: { type: 'boolean', description: 'False for an entry no longer eligible that still holds assignments.' },
        source: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { kind: { type: 'string', enum: ['approved', 'shortlisted'] }, exam_id: { type: ['integer', 'null'] } },
        },
        count: integer,
      }),
    ),
    jurors: arrayOf(
      object({
        id: integer,
        name: text,
        company: textOrNull,
        is_active: { type: 'boolean' },
        on_panel: { type: 'boolean' },
        edition_load: integer,
        count: integer,
      }),
    ),
    assignments: arrayOf(object({ id: integer, contest_id: integer, jury_id: integer, status: assignmentStatus })),
    conflicts: {
      ...arrayOf({ type: 'array', items: integer, minItems: 2, maxItems: 2 }),
      description: '`[contest_id, jury_id]` pairs in a conflict of interest.',
    },
    conflict_rules: arrayOf(object({ contest_id: integer, jury_id: integer, rules: arrayOf(text) })),
  }),
);

const counts = { total: integer, assigned: integer, in_progress: integer, submitted: integer, recused: integer };
export const progressQuery = object({ exam_id: id });
export const progressAnswer = data(
  object({
    exams: arrayOf(object({ id: integer, name: text, round: integer, status: text, category_id: integer, ...counts })),
    jurors: arrayOf(object({ jury_id: integer, name: text, round: integer, ...counts })),
    categories: arrayOf(object({ category_id: integer, name: text, round: integer, ...counts })),
  }),
);

export const remindersBody: Schema = { type: ['object', 'null'], additionalProperties: false, properties: { exam_id: id } };
export const remindersAnswer = data(
  object({
    sent: integer,
    failed: integer,
    entries: { type: 'integer', description: 'Entries still to grade, summed over the jurors reminded.' },
    transport: { type: 'string', enum: ['smtp', 'log'] },
    jurors: arrayOf(object({ jury_id: integer, name: text, pending: integer })),
  }),
);

// --- Grades ---

const gradeRecord = object({
  id: integer,
  assignment_id: { type: ['integer', 'null'] },
  exam_id: integer,
  contest_id: integer,
  jury_id: integer,
  scores,
  total: { type: ['number', 'null'] },
  score: integer,
  remarks: textOrNull,
  status: { type: 'string', enum: ['draft', 'submitted'] },
  submitted_at: timeOrNull,
  updated_at: time,
  reopen_reason: { ...textOrNull, description: 'Why an admin reopened the grade (the juror is told).' },
});
export const gradeAnswer = data(gradeRecord);
/** The juror's own grade as the portal gets it back: no contest id (blind). */
export const jurorGradeAnswer = data({
  ...gradeRecord,
  properties: Object.fromEntries(Object.entries(gradeRecord.properties as Record<string, Schema>).filter(([key]) => key !== 'contest_id')),
});
/** `POST /grades/{id}/reopen`: the reason is required (checked by the service: 422 `reason_required`, 3 to 500 characters). */
export const gradeReopenBody = { type: ['object', 'null'], properties: { reason: { type: 'string', maxLength: 2000 } } };

export const gradeBody = object(
  {
    scores: { type: 'object', maxProperties: 20, propertyNames: { maxLength: 40 }, additionalProperties: { type: ['number', 'null'] } },
    remarks: { type: ['string', 'null'], maxLength: 2000 },
    submit: { type: 'boolean', default: false },
  },
  ['scores'],
);

// --- The jury portal (jurors, blind; admins read-only) ---

export const juryQuery = object({ jury_id: id });

/** An entry as a juror sees it: its blind content only, no id and nothing that names the entrant (the schema drops anything else). */
const blindEntry = (extra: readonly string[]) => object(Object.fromEntries([...BLIND_ENTRY_FIELDS, ...extra].map((field) => [field, textOrNull])));

/** The jury portal's answer; `extra` are the entry fields the entry descriptor's portal form adds for jurors (`jurorFields`). */
export const juryWorkAnswerFor = (extra: readonly string[] = []) =>
  data(
    object({
      juror: object({ id: integer, name: text }),
      read_only: { type: 'boolean', description: "True for an admin viewing a juror's portal." },
      exams: arrayOf(
        object({
          id: integer,
          name: text,
          round: integer,
          status: text,
          max_score: integer,
          criteria,
          opens_at: timeOrNull,
          closes_at: timeOrNull,
          category: textOrNull,
          progress: object(counts),
        }),
      ),
      assignments: arrayOf(
        object({
          id: integer,
          exam_id: integer,
          code: { type: 'string', description: "The entry's blind code in the examination (e.g. R1-7K3QX): jurors never see the contest's id." },
          status: assignmentStatus,
          recuse_reason: textOrNull,
          entry: blindEntry(extra),
          grade: {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: {
              scores,
              remarks: textOrNull,
              total: { type: ['number', 'null'] },
              status: text,
              submitted_at: timeOrNull,
              updated_at: time,
            },
          },
        }),
      ),
    }),
  );

export const juryWorkAnswer = juryWorkAnswerFor();

export const recuseBody = object({ reason: { type: 'string', maxLength: 500 } }, ['reason']);
export const recuseAnswer = data(object({ id: integer, exam_id: integer, jury_id: integer, status: assignmentStatus, recuse_reason: textOrNull }));

export const juryMeAnswer = data({ type: ['object', 'null'], additionalProperties: false, properties: { id: integer, name: text, round: integer } });

// --- Applicants ---

/** An application's row as stored (its descriptor's fields). */
const applicantProperties = {
  id: integer,
  name: text,
  email: text,
  status: { type: 'string', enum: ['applied', 'approved', 'rejected'] },
  company: textOrNull,
  country: textOrNull,
  expertise: { type: ['array', 'null'], items: text },
  rejection_reason: textOrNull,
  jury_id: { type: ['integer', 'null'] },
  created_at: time,
  updated_at: time,
};
export const approveBody = object({ round: { type: 'integer', minimum: 1, maximum: 2, default: 1 } });
export const approveAnswer = data({
  type: 'object',
  additionalProperties: false,
  properties: { ...applicantProperties, account_id: { ...integer, description: "The juror's invited account." } },
});
export const rejectBody = object({ reason: { type: 'string', minLength: 3, maxLength: 500 } }, ['reason']);
export const rejectAnswer = data({ type: 'object', additionalProperties: false, properties: applicantProperties });

// --- The dashboard ---

const nameList = arrayOf(text);
export const dashboardAnswer = data(
  object({
    totals: object({ juries: integer, exams: integer, companies: integer }),
    rounds: arrayOf(object({ round: integer, juries: integer, graded: integer })),
    latestContests: arrayOf(
      object({
        id: integer,
        company: textOrNull,
        categories: nameList,
        juryR1: nameList,
        juryR2: nameList,
        status: { type: 'string', enum: [...JUDGING_STATUSES] },
        created_at: time,
      }),
    ),
  }),
);
