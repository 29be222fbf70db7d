import { JUDGING_STATUSES } from '../../judging/index.js';
import { RANKING_BASES } from '../shared/aggregate.js';

/**
 * The request and response schemas of the results routes. Fastify validates the requests with them
 * and serialises the answers from them (a field not listed here never leaves the server), and
 * `GET /api/openapi.json` documents them. The answers follow `../shared/results-contract.ts`;
 * figures that may be missing (no grade yet) are nullable. A finalised exam answers the results
 * locked then, so nothing here is required: an older snapshot may lack a newer field.
 */

type Schema = Record<string, unknown>;

const TAGS = ['results'];

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const data = (schema: Schema): Schema => object({ data: schema });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] });

const integer = { type: 'integer' };
const number = { type: 'number' };
const figure = { type: ['number', 'null'] };
const text = { type: 'string' };
const textOrNull = { type: ['string', 'null'] };
const flag = { type: 'boolean' };
const ids = arrayOf(integer);

/** The route's schema: OpenAPI tags and summary, the request parts, the success answers. */
export const route = (summary: string, parts: { params?: Schema; querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema => ({
  tags: TAGS,
  summary,
  ...parts,
});

/** A path's record id, documented as text: the handler applies the shared rule (`7`, not `07`) and answers 400 'Invalid <entity> ID' otherwise. */
const idProperty = (label: string) => ({
  type: 'string',
  description: `The ${label}'s id: a positive whole number; anything else is a 400 'Invalid ${label} ID'.`,
});
export const examParams = object({ id: idProperty('Examination') }, ['id']);
export const contestParams = object({ id: idProperty('Contest') }, ['id']);
export const awardParams = object({ id: idProperty('Examination'), contestId: idProperty('Contest') }, ['id', 'contestId']);

const award = nullable(object({ id: integer, name: text }));
const ranking = { type: 'string', enum: [...RANKING_BASES], description: 'What rank, shortlist and awards follow.' };
const rawReason = { type: ['string', 'null'], enum: ['few_grades', 'no_spread', null], description: "Why the juror's totals are kept raw (null: normalised)." };

/** One entry's row (`ResultsEntry`): the figures of the shared maths, who entered it and its award. */
const resultsEntry = object({
  contestId: integer,
  submitted: integer,
  assigned: integer,
  mean: figure,
  trimmedMean: figure,
  normalised: figure,
  spread: figure,
  score: { ...figure, description: "The final score: the figure the exam's ranking basis names (rank, shortlist and awards follow it)." },
  rawGrades: { ...integer, description: "How many of the entry's grades are kept raw because their juror could not be normalised (the fallback)." },
  rank: { type: ['integer', 'null'] },
  position: integer,
  moderation: flag,
  grades: arrayOf(object({ jurorId: integer, total: number, normalised: number, raw: rawReason })),
  submittedAt: textOrNull,
  campaign: textOrNull,
  customer: textOrNull,
  company: textOrNull,
  award,
  ruleAward: award,
  awardOverridden: flag,
  awardReason: textOrNull,
});

const progress = arrayOf(object({ date: { type: 'string', format: 'date' }, submitted: integer }));

/** `ExamResultsData`. */
const examResults = object({
  exam: object({ id: integer, name: text, round: integer, category_id: integer, category: textOrNull, max_score: integer, status: text }),
  ranking,
  finalised: nullable(object({ at: text, by: { type: ['integer', 'null'] } })),
  examMean: figure,
  examSd: figure,
  moderationThreshold: number,
  assigned: integer,
  submitted: integer,
  entries: arrayOf(resultsEntry),
  jurors: arrayOf(object({ jurorId: integer, name: text, grades: integer, mean: number, sd: number, leniency: number, raw: rawReason })),
  progress,
});
export const examResultsAnswer = data(examResults);

export const overviewAnswer = data(
  object({
    exams: arrayOf(object({ examId: integer, category: textOrNull, round: integer, maxScore: number, scores: arrayOf(number) })),
    jurors: arrayOf(object({ name: text, grades: integer, mean: number, leniency: number })),
    progress,
  }),
);

export const contestJudgingAnswer = data(
  object({
    contestId: integer,
    status: { type: 'string', enum: [...JUDGING_STATUSES] },
    exams: arrayOf(
      object({ examId: integer, name: text, round: integer, finalised: flag, entry: resultsEntry, jurors: arrayOf(object({ name: text, total: number })) }),
    ),
  }),
);

export const exportQuery = object({
  format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' },
  per: { type: 'string', enum: ['entry', 'juror'], default: 'entry' },
  anonymise: { type: 'boolean', default: false },
  lang: { type: 'string', enum: ['en', 'id', 'ms'], default: 'en' },
});
export const exportAnswer: Schema = {
  description: 'The results file (an attachment).',
  content: {
    'text/csv': { schema: { type: 'string', description: 'CSV, UTF-8 with a byte-order mark.' } },
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
  },
};

export const shortlistBody = object({
  top: { type: 'integer', minimum: 1, maximum: 10000 },
  min_score: { type: 'number', minimum: 0, maximum: 1000 },
  dry_run: { type: 'boolean' },
});
export const shortlistAnswer = data(
  object({
    dryRun: flag,
    targetExamId: { type: ['integer', 'null'] },
    targetExamName: textOrNull,
    createdExam: flag,
    selected: ids,
    added: ids,
    removed: ids,
    keptGraded: ids,
    unchanged: ids,
  }),
);

const reason = { type: 'string', minLength: 3, maxLength: 500 };
export const overrideBody = object({ award_category_id: { type: ['integer', 'null'], minimum: 1 }, reason }, ['award_category_id', 'reason']);
export const reasonBody = object({ reason }, ['reason']);

/** `ExamModeration`: flagged entries with every juror's per-criterion scores and remarks. */
export const moderationAnswer = data(
  object({
    exam: object({ id: integer, name: text, round: integer, status: text, max_score: integer, ranking }),
    moderationThreshold: number,
    criteria: arrayOf(object({ key: text, label: text, weight: number, maximum: number })),
    codes: flag,
    entries: arrayOf(
      object({
        contestId: integer,
        code: textOrNull,
        campaign: textOrNull,
        position: integer,
        rank: { type: ['integer', 'null'] },
        score: figure,
        mean: figure,
        spread: figure,
        flagged: flag,
        grades: arrayOf(
          object({
            gradeId: integer,
            jurorId: integer,
            juror: text,
            status: { type: 'string', enum: ['draft', 'submitted'] },
            total: number,
            normalised: figure,
            raw: rawReason,
            scores: { type: 'object', additionalProperties: number },
            remarks: textOrNull,
            reopenReason: textOrNull,
            submittedAt: textOrNull,
          }),
        ),
      }),
    ),
  }),
);
