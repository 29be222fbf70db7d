import { stringify } from 'csv-stringify/sync';
import en from '../../../../locales/en/common.json';
import id from '../../../../locales/id/common.json';
import ms from '../../../../locales/ms/common.json';
import type { ExamResultsData } from '../shared/results-contract.js';

export type ExportLanguage = 'en' | 'id' | 'ms';
export interface ExportOptions {
  format: 'csv' | 'xlsx';
  /** `entry`: one row per entry; `juror`: one row per grade (entry × juror). */
  per: 'entry' | 'juror';
  /** Leave out who entered (campaign, submittor, company) and name entries by their place only. */
  anonymise: boolean;
  language: ExportLanguage;
}

type Cell = string | number | boolean | null;

/** One juror's grade as the per-juror export adds it: per-criterion scores and remarks. */
export interface GradeDetail {
  scores: Record<string, number>;
  remarks: string | null;
  reopenReason: string | null;
}

/** What the per-juror export adds to the results: the exam's criteria and each grade's details by `contestId:jurorId`. */
export interface ExportDetails {
  criteria: Array<{ key: string; label: string }>;
  grades: Map<string, GradeDetail>;
}

/**
 * A CSV cell a spreadsheet would run as a formula (text starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return: remarks and names are typed by people) gets a leading quote, as the audit
 * export does. Numbers stay numbers.
 */
export function csvSafe(cell: Cell): Cell {
  return typeof cell === 'string' && /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
const LOCALES = { en, id, ms } as const;

/** The anonymous name of an entry: its place in the results (`E-007`). */
export const anonymousEntry = (position: number) => `E-${String(position).padStart(3, '0')}`;

/** The export's table: a header row in the chosen language, then the rows. */
export function exportTable(
  data: ExamResultsData,
  options: Pick<ExportOptions, 'per' | 'anonymise' | 'language'>,
  details: ExportDetails = { criteria: [], grades: new Map() },
): Cell[][] {
  const locale = (LOCALES[options.language] as any).results as { columns: Record<string, string>; basis: Record<string, string> };
  const basis = data.ranking ?? 'trimmed_mean';
  const columns: Record<string, string> = { ...locale.columns, score: `${locale.columns.score} (${locale.basis[basis] ?? basis})` };
  const overrideMark = (e: ExamResultsData['entries'][number]): Cell[] => [
    e.award?.name ?? '',
    e.awardOverridden,
    e.awardOverridden ? (e.ruleAward?.name ?? '') : '',
    e.awardReason ?? '',
  ];
  const overrideHeader = ['award', 'awardOverridden', 'ruleAward', 'overrideReason'];
  const who = (e: ExamResultsData['entries'][number]): Cell[] =>
    options.anonymise ? [anonymousEntry(e.position)] : [e.contestId, e.campaign, e.customer, e.company];
  const whoHeader = options.anonymise ? ['entry'] : ['contest', 'campaign', 'customer', 'company'];
  if (options.per === 'juror') {
    const names = new Map(data.jurors.map((j) => [j.jurorId, j.name]));
    const header = ['position', 'rank', ...whoHeader, 'juror', 'total', 'normalised', 'rawKept'].map((key) => columns[key] ?? key);
    header.push(
      ...details.criteria.map((c) => c.label),
      columns.remarks ?? 'remarks',
      columns.reopenReason ?? 'reopenReason',
      ...overrideHeader.map((k) => columns[k] ?? k),
    );
    const rows = data.entries.flatMap((e) =>
      e.grades.map((g): Cell[] => {
        const detail = details.grades.get(`${e.contestId}:${g.jurorId}`);
        return [
          e.position,
          e.rank,
          ...who(e),
          names.get(g.jurorId) ?? `#${g.jurorId}`,
          g.total,
          g.normalised,
          g.raw ?? '',
          ...details.criteria.map((c) => detail?.scores[c.key] ?? null),
          detail?.remarks ?? '',
          detail?.reopenReason ?? '',
          ...overrideMark(e),
        ];
      }),
    );
    return [header, ...rows];
  }
  const header = [
    'position',
    'rank',
    ...whoHeader,
    'submitted',
    'assigned',
    'mean',
    'trimmedMean',
    'normalised',
    'score',
    'spread',
    'rawGrades',
    'moderation',
    ...overrideHeader,
  ];
  const rows = data.entries.map((e): Cell[] => [
    e.position,
    e.rank,
    ...who(e),
    e.submitted,
    e.assigned,
    e.mean,
    e.trimmedMean,
    e.normalised,
    e.score ?? e.trimmedMean,
    e.spread,
    e.rawGrades ?? 0,
    e.moderation,
    ...overrideMark(e),
  ]);
  return [header.map((key) => columns[key] ?? key), ...rows];
}

/** The exported file: CSV (UTF-8 with a byte-order mark, so spreadsheets read the accents) or XLSX. */
export async function exportResults(
  data: ExamResultsData,
  options: ExportOptions,
  details?: ExportDetails,
): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const table = exportTable(data, options, details);
  const base = `results-exam-${data.exam.id}${options.per === 'juror' ? '-jurors' : ''}${options.anonymise ? '-anonymised' : ''}`;
  if (options.format === 'csv') {
    const text = stringify(table.map((row) => row.map((cell) => (typeof cell === 'boolean' ? (cell ? 'TRUE' : 'FALSE') : csvSafe(cell)))));
    return { body: Buffer.from(`\ufeff${text}`, 'utf8'), contentType: 'text/csv; charset=utf-8', fileName: `${base}.csv` };
  }
  // exceljs (some 20 MB) is loaded with the first workbook.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Results');
  // An empty cell for null or '' (exceljs leaves undefined out), the other values as their own type.
  for (const row of table) sheet.addRow(row.map((value) => (value === null || value === '' ? undefined : value)));
  const body = Buffer.from(await workbook.xlsx.writeBuffer());
  return { body, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileName: `${base}.xlsx` };
}
