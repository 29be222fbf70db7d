import { slugify } from '../../../shared/slugify.js';
import { DEMO_CAMPAIGNS, DEMO_CATEGORIES, DEMO_COMPANIES, DEMO_JURORS, DEMO_SUBMITTORS } from './demo-catalog.js';

/** A record to insert; `{ ref: [entity, index] }` values are replaced by the id of that inserted record. */
export type DemoValue = string | number | boolean | null | string[] | { ref: [entity: string, index: number] } | JsonValue;
/** A jsonb field's value (an exam's criteria, a grade's scores). */
export type JsonValue = { json: unknown };
export type DemoRecord = Record<string, DemoValue>;

/** The demo data set: records per entity name, in an order where every reference points backwards. */
export interface DemoDataSet {
  order: string[];
  records: Record<string, DemoRecord[]>;
  /**
   * The previous (archived) edition's judging, finished once the records are in: its Round 2 takes
   * the entries shortlisted from its Round 1 (`contests`: indexes into `records.contest`), then both
   * exams are finalised through the results feature and the edition archived.
   */
  previousEdition: { edition: number; round1: number; round2: number; shortlist: number[] };
  /**
   * The entries' pictures (logo, key visual), generated and stored as media once the records are in
   * (`contest`: an index into `records.contest`); the records hold none until then, never an external URL.
   */
  images: DemoImage[];
}

/** One generated picture of an entry: which field it fills, its kind and the text its colours come from. */
export interface DemoImage {
  contest: number;
  field: 'logo_url' | 'campaign_kv_url';
  kind: 'logo' | 'kv';
  seed: string;
}

/** Marks a picture to generate in a record being built (taken out by {@link takeImages}). */
const DEMO_IMAGE = 'demo-image:';

/** The pictures marked in the entries, each field left null until its picture is stored. */
function takeImages(contests: DemoRecord[]): DemoImage[] {
  const images: DemoImage[] = [];
  contests.forEach((record, contest) => {
    for (const field of ['logo_url', 'campaign_kv_url'] as const) {
      const value = record[field];
      if (typeof value !== 'string' || !value.startsWith(DEMO_IMAGE)) continue;
      const [kind, seed] = value.slice(DEMO_IMAGE.length).split(/:(.*)/s) as ['logo' | 'kv', string];
      images.push({ contest, field, kind, seed });
      record[field] = null;
    }
  });
  return images;
}

/**
 * The figures the dashboard shows on fresh demo data (the spec's sample dashboard). The data set is
 * built to reproduce them; a test checks `/api/dashboard` against this object.
 */
export const DEMO_FIGURES = {
  juries: 20,
  exams: 12,
  companies: 10,
  rounds: [
    { round: 1, juries: 12, graded: 89 },
    { round: 2, juries: 8, graded: 34 },
  ],
} as const;

const CONTESTS = 36;

/** The seasons: the current one, judging, holding every record above; the previous one archived. */
const DEMO_EDITIONS = [
  { name: 'Awards 2026', year: 2026, status: 'judging', entries_open_at: '2026-02-01T00:00:00.000Z', entries_close_at: '2026-06-30T15:59:00.000Z' },
  { name: 'Awards 2025', year: 2025, status: 'closed', entries_open_at: '2025-02-01T00:00:00.000Z', entries_close_at: '2025-06-30T15:59:00.000Z' },
];
const CURRENT_EDITION: DemoValue = { ref: ['edition', 0] };
const PREVIOUS_EDITION: DemoValue = { ref: ['edition', 1] };
/** The previous edition's entries: six approved entries of one category, judged in two rounds. */
const PREVIOUS_CATEGORY = 0;
const PREVIOUS_CONTESTS = 6;
/** Round 1 jurors (indexes into the jurors) and each entry's score with each of them; entries 0, 2 and 4 lead. */
const PREVIOUS_R1 = {
  jurors: [0, 1, 2],
  scores: [
    [88, 84, 90],
    [71, 66, 74],
    [82, 86, 79],
    [62, 70, 58],
    [91, 87, 85],
    [68, 64, 73],
  ],
};
/** Round 2 jurors and the shortlisted entries' scores. */
const PREVIOUS_R2 = {
  jurors: [12, 13, 14],
  shortlist: [0, 2, 4],
  scores: [
    [86, 90, 84],
    [78, 74, 81],
    [93, 88, 91],
  ],
};

/** The judging sheets of the demo exams: Round 1 shortlisting and Round 2 final judging, each criterion out of 10. */
const DEMO_CRITERIA = {
  1: [
    { key: 'idea', label: 'Idea', weight: 30, maximum: 10 },
    { key: 'insight_strategy', label: 'Insight and strategy', weight: 30, maximum: 10 },
    { key: 'execution', label: 'Execution', weight: 20, maximum: 10 },
    { key: 'results', label: 'Results', weight: 20, maximum: 10 },
  ],
  2: [
    { key: 'effectiveness', label: 'Effectiveness and results', weight: 40, maximum: 10 },
    { key: 'creativity', label: 'Creativity', weight: 30, maximum: 10 },
    { key: 'craft', label: 'Craft', weight: 15, maximum: 10 },
    { key: 'relevance', label: 'Relevance to Malaysia or Indonesia', weight: 15, maximum: 10 },
  ],
} as const;

/** People who applied to sit on the jury, not yet decided. */
const DEMO_APPLICANTS = [
  { name: 'Farah Aziz', email: 'farah.aziz@example.my', company: 'Kilau Creative Sdn Bhd', country: 'MY' },
  { name: 'Bima Santoso', email: 'bima.santoso@example.co.id', company: 'PT Cahaya Ide', country: 'ID' },
  { name: 'Chen Wei Ling', email: 'weiling.chen@example.my', company: 'Harbour Media Bhd', country: 'MY' },
];
/** Entries the organisers rejected at screening ('Cancelled' on the dashboard). */
const REJECTED = new Set([7, 19, 26, 33]);
/** The newest entries, not yet graded in Round 1; the first three are still pending verification. */
const PENDING = new Set([35, 34, 31]);
const AWAITING_R1 = new Set([35, 34, 31, 29, 24, 17, 10]);
/** Of the entries graded in Round 1, how many get four jurors (the rest three): 14·4 + 11·3 = 89. */
const R1_FOUR_JURORS = 14;
/** The shortlist graded in Round 2: ten of the entries graded in Round 1, old and recent; 4·4 + 6·3 = 34. */
const inR2Shortlist = (g: number) => g % 5 === 1 || g % 5 === 3;
const R2_FOUR_JURORS = 4;
const R1_JURORS = 12;

/** The awards a programme gives, handed out in rank order from a final round's ranking. */
const DEMO_AWARDS: DemoRecord[] = [
  { name: 'Grand Prix', rank: 1, rule: 'top_n', top_n: 1, min_score: null },
  { name: 'Gold', rank: 2, rule: 'min_score', top_n: null, min_score: 85 },
  { name: 'Silver', rank: 3, rule: 'min_score', top_n: null, min_score: 75 },
  { name: 'Bronze', rank: 4, rule: 'min_score', top_n: null, min_score: 65 },
  { name: 'Merit', rank: 5, rule: 'top_n', top_n: 2, min_score: null },
];

const HOUR = 3_600_000;
const iso = (time: number) => new Date(time).toISOString();
const day = (time: number) => iso(time).slice(0, 10);
const emailOf = (name: string, domain: string) =>
  `${name
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .join('.')}@${domain}`;
const phoneOf = (country: 'MY' | 'ID', n: number) =>
  country === 'MY'
    ? `+60 12-${String(300 + n * 37).padStart(3, '0')} ${String(1000 + n * 613).slice(-4)}`
    : `+62 812-${String(1000 + n * 271).slice(-4)}-${String(2000 + n * 409).slice(-4)}`;

/** Which award category the r-th entry of a campaign goes to: distinct per campaign. */
const categoryOf = (campaign: number, repeat: number) => (campaign + [0, 2, 4, 1][repeat]!) % DEMO_CATEGORIES.length;

/**
 * Builds the demo data set: 10 companies, 6 categories, 12 submittors, 10 campaigns, 36 contests,
 * 20 jurors (12 in Round 1, 8 in Round 2), 12 examinations (one per category and round) and 123
 * grades (89 in Round 1, 34 in Round 2). The content is fixed; timestamps count back from `now`
 * so that the newest entries are recent whenever the data set is created.
 */
export function buildDemoData(now: Date): DemoDataSet {
  const t = now.getTime();
  const records: Record<string, DemoRecord[]> = {};

  records.company = DEMO_COMPANIES.map((company, i) => ({ name: company.name, is_active: true, created_at: iso(t - (400 - i) * 24 * HOUR) }));

  records.category = DEMO_CATEGORIES.map((category, i) => ({
    name: category.name,
    description: category.description,
    slug: slugify(category.name),
    status: 'active',
    created_at: iso(t - (380 - i) * 24 * HOUR),
  }));

  records.customer = DEMO_SUBMITTORS.map((person, i) => {
    const company = DEMO_COMPANIES[person.company]!;
    return {
      name: person.name,
      email: emailOf(person.name, company.domain),
      phone: phoneOf(company.country, i),
      company: company.name,
      job_title: person.jobTitle,
      is_active: i !== 10,
      email_verified_at: i % 5 === 4 ? null : iso(t - (200 - i * 3) * 24 * HOUR),
      max_entries: 10 + (i % 3) * 10,
      created_at: iso(t - (210 - i * 3) * 24 * HOUR),
    };
  });

  records.edition = DEMO_EDITIONS.map((edition, e) => ({ ...edition, created_at: iso(t - (420 - e * 365) * 24 * HOUR) }));

  records.campaign = DEMO_CAMPAIGNS.map((campaign, c) => {
    const start = t - (190 - c * 9) * 24 * HOUR;
    return {
      name: campaign.name,
      brand_name: campaign.brand,
      status: c === 1 || c === 5 ? 'ended' : 'active',
      start_date: day(start),
      end_date: day(start + (45 + c * 4) * 24 * HOUR),
      hashtags: campaign.hashtags,
      material_link: `https://www.${DEMO_COMPANIES[campaign.company]!.domain}/work/${slugify(campaign.name)}`,
      credit_to_partners: campaign.partners,
      created_at: iso(start - 10 * 24 * HOUR),
    };
  });

  records.contest = [];
  const graded: number[] = [];
  for (let i = 0; i < CONTESTS; i++) {
    const c = i % DEMO_CAMPAIGNS.length;
    const repeat = Math.floor(i / DEMO_CAMPAIGNS.length);
    const campaign = DEMO_CAMPAIGNS[c]!;
    const category = DEMO_CATEGORIES[categoryOf(c, repeat)]!;
    const submittors = DEMO_SUBMITTORS.map((s, index) => ({ s, index })).filter(({ s }) => s.company === campaign.company);
    const customer = submittors[repeat % submittors.length]!.index;
    const status = REJECTED.has(i) ? 'rejected' : PENDING.has(i) ? 'pending' : AWAITING_R1.has(i) ? 'submitted' : 'approved';
    if (status === 'approved') graded.push(i);
    const slug = `${slugify(campaign.name)}-${slugify(category.name)}`;
    const created = t - (CONTESTS - i) * 26 * HOUR + (i % 4) * 17 * 60_000;
    records.contest.push({
      campaign_id: { ref: ['campaign', c] },
      customer_id: { ref: ['customer', customer] },
      category_id: { ref: ['category', categoryOf(c, repeat)] },
      edition_id: CURRENT_EDITION,
      status,
      strategy: campaign.strategy,
      insight: campaign.insight,
      creative_idea: `${campaign.idea} Entered in ${category.name}.`,
      connection_plan: campaign.plan,
      objective_based_kpi: campaign.kpi,
      confidential_kpi: i % 6 === 5 ? null : campaign.confidentialKpi,
      logo_url: i % 7 === 6 ? null : `${DEMO_IMAGE}logo:${slugify(campaign.brand)}`,
      campaign_kv_url: `${DEMO_IMAGE}kv:${slug}`,
      video_link: i % 5 === 3 ? null : `https://www.youtube.com/results?search_query=${encodeURIComponent(`${campaign.brand} ${campaign.name}`)}`,
      other: i % 3 === 0 ? `Case study: https://www.${DEMO_COMPANIES[campaign.company]!.domain}/work/${slug}` : null,
      created_at: iso(created),
      updated_at: iso(created + (status === 'pending' ? 0 : 5 * HOUR)),
    });
  }

  records.jury = DEMO_JURORS.map((juror, j) => ({
    name: juror.name,
    email: emailOf(juror.name, juror.country === 'MY' ? 'jury.awards.my' : 'jury.awards.id'),
    phone: phoneOf(juror.country, j + 20),
    company: juror.company,
    job_title: juror.jobTitle,
    country: juror.country,
    round: j < R1_JURORS ? 1 : 2,
    is_active: true,
    created_at: iso(t - (120 - j) * 24 * HOUR),
  }));

  records.exam = DEMO_CATEGORIES.flatMap((category, k) =>
    [1, 2].map((round) => ({
      name: `${category.name} — Round ${round}`,
      category_id: { ref: ['category', k] } as DemoValue,
      edition_id: CURRENT_EDITION,
      round,
      criteria: { json: DEMO_CRITERIA[round as 1 | 2] },
      max_score: 100,
      opens_at: iso(t - (round === 1 ? 60 : 20) * 24 * HOUR),
      closes_at: iso(t + (round === 1 ? -25 : 15) * 24 * HOUR),
      status: round === 1 ? 'closed' : 'open',
      created_at: iso(t - (100 - k) * 24 * HOUR),
    })),
  );

  records.assignment = [];
  records.grade = [];
  const grade = (contest: number, jury: number, exam: number, round: 1 | 2, score: number, remarks: string | null, created: number) => {
    records.assignment!.push({
      exam_id: { ref: ['exam', exam] },
      contest_id: { ref: ['contest', contest] },
      jury_id: { ref: ['jury', jury] },
      status: 'submitted',
      created_at: iso(created - 6 * HOUR),
    });
    records.grade!.push({
      assignment_id: { ref: ['assignment', records.assignment!.length - 1] },
      contest_id: { ref: ['contest', contest] },
      jury_id: { ref: ['jury', jury] },
      exam_id: { ref: ['exam', exam] },
      scores: { json: Object.fromEntries(DEMO_CRITERIA[round].map((c) => [c.key, score / 10])) },
      total: score,
      score,
      remarks,
      status: 'submitted',
      submitted_at: iso(created),
      created_at: iso(created),
    });
  };
  graded.forEach((i, g) => {
    const contest = records.contest![i]!;
    const categoryIndex = categoryOf(i % DEMO_CAMPAIGNS.length, Math.floor(i / DEMO_CAMPAIGNS.length));
    const created = Date.parse(String(contest.created_at));
    const r1 = g < R1_FOUR_JURORS ? 4 : 3;
    for (let j = 0; j < r1; j++) {
      grade(
        i,
        (g * 5 + j) % R1_JURORS,
        categoryIndex * 2,
        1,
        55 + ((g * 17 + j * 29) % 41),
        j === 0 ? 'Clear insight; the results section could show the baseline.' : null,
        created + (8 + j) * HOUR,
      );
    }
    if (!inR2Shortlist(g)) return;
    const k = Array.from({ length: g }, (_, n) => n).filter(inR2Shortlist).length;
    const r2 = k < R2_FOUR_JURORS ? 4 : 3;
    for (let j = 0; j < r2; j++) {
      grade(
        i,
        R1_JURORS + ((g * 3 + j) % (DEMO_JURORS.length - R1_JURORS)),
        categoryIndex * 2 + 1,
        2,
        60 + ((g * 13 + j * 7) % 36),
        j === 0 ? 'Strong effectiveness story with credible local relevance.' : null,
        created + (30 + j) * HOUR,
      );
    }
  });

  const previous = previousEdition(records, t, grade);

  records.applicant = DEMO_APPLICANTS.map((a, n) => ({
    ...a,
    expertise: { json: [n % DEMO_CATEGORIES.length, (n + 2) % DEMO_CATEGORIES.length].map((k) => k + 1) },
    status: 'applied',
    created_at: iso(t - (6 - n) * 24 * HOUR),
  }));

  records.award_category = DEMO_AWARDS.map((award, i) => ({ ...award, created_at: iso(t - (90 - i) * 24 * HOUR) }));

  return {
    order: ['company', 'category', 'customer', 'edition', 'campaign', 'contest', 'jury', 'exam', 'assignment', 'grade', 'applicant', 'award_category'],
    records,
    previousEdition: previous,
    images: takeImages(records.contest),
  };
}

/**
 * The archived previous edition: six approved entries of one category (last year's campaigns),
 * its Round 1 exam graded by three Round 1 jurors, and its Round 2 exam grading the three leading
 * entries with three Round 2 jurors; both closed (finalised after insertion, see `previousEdition`).
 */
function previousEdition(
  records: Record<string, DemoRecord[]>,
  t: number,
  grade: (contest: number, jury: number, exam: number, round: 1 | 2, score: number, remarks: string | null, created: number) => void,
): DemoDataSet['previousEdition'] {
  const category = DEMO_CATEGORIES[PREVIOUS_CATEGORY]!;
  const firstContest = records.contest!.length;
  for (let i = 0; i < PREVIOUS_CONTESTS; i++) {
    const campaign = DEMO_CAMPAIGNS[i]!;
    const submittor = DEMO_SUBMITTORS.findIndex((s) => s.company === campaign.company);
    const created = t - (400 - i * 3) * 24 * HOUR;
    records.contest!.push({
      campaign_id: { ref: ['campaign', i] },
      customer_id: { ref: ['customer', Math.max(0, submittor)] },
      category_id: { ref: ['category', PREVIOUS_CATEGORY] },
      edition_id: PREVIOUS_EDITION,
      status: 'approved',
      strategy: campaign.strategy,
      insight: campaign.insight,
      creative_idea: `${campaign.idea} Entered in ${category.name} last season.`,
      connection_plan: campaign.plan,
      objective_based_kpi: campaign.kpi,
      confidential_kpi: campaign.confidentialKpi,
      logo_url: `${DEMO_IMAGE}logo:${slugify(campaign.brand)}`,
      campaign_kv_url: `${DEMO_IMAGE}kv:${slugify(campaign.name)}-2025`,
      video_link: null,
      other: null,
      created_at: iso(created),
      updated_at: iso(created + 5 * HOUR),
    });
  }
  const firstExam = records.exam!.length;
  for (const round of [1, 2] as const) {
    records.exam!.push({
      name: `${category.name} — Round ${round}`,
      category_id: { ref: ['category', PREVIOUS_CATEGORY] },
      edition_id: PREVIOUS_EDITION,
      round,
      criteria: { json: DEMO_CRITERIA[round] },
      max_score: 100,
      opens_at: iso(t - (round === 1 ? 330 : 300) * 24 * HOUR),
      closes_at: iso(t - (round === 1 ? 310 : 280) * 24 * HOUR),
      status: 'closed',
      created_at: iso(t - 340 * 24 * HOUR),
    });
  }
  PREVIOUS_R1.scores.forEach((scores, i) => {
    scores.forEach((score, j) => {
      grade(firstContest + i, PREVIOUS_R1.jurors[j]!, firstExam, 1, score, j === 0 ? 'A confident entry from last season.' : null, t - (320 - i) * 24 * HOUR);
    });
  });
  PREVIOUS_R2.shortlist.forEach((i, k) => {
    PREVIOUS_R2.scores[k]!.forEach((score, j) => {
      grade(firstContest + i, PREVIOUS_R2.jurors[j]!, firstExam + 1, 2, score, j === 0 ? 'Held up well in the final round.' : null, t - (290 - i) * 24 * HOUR);
    });
  });
  return { edition: 1, round1: firstExam, round2: firstExam + 1, shortlist: PREVIOUS_R2.shortlist.map((i) => firstContest + i) };
}
