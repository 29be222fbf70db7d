import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';
import { GROUP_COUNTS_TABLE, MANAGED_PREFIXES, ROW_COUNTS_TABLE, syncEntityTables } from '../../../server/index.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { defaultEditionId } from '../../editions/server.js';
import { DEMO_CAMPAIGNS, DEMO_CATEGORIES, DEMO_COMPANIES, DEMO_JURORS, DEMO_SUBMITTORS } from './demo-catalog.js';

/** What to generate. */
export interface BulkSeedOptions {
  contests: number;
  /** Default: one per 100 contests, at least 50. */
  customers?: number;
  /** Default: one per 1,000 contests, at least 20. */
  campaigns?: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  log?: (line: string) => void;
}

export interface BulkSeedReport {
  customers: number;
  campaigns: number;
  contests: number;
  seconds: number;
}

const PREFIXES = [
  'Kancil',
  'Rimba',
  'Naga',
  'Selat',
  'Langit',
  'Garuda',
  'Arunika',
  'Rajawali',
  'Samudra',
  'Pelangi',
  'Merak',
  'Harimau',
  'Bintang',
  'Cahaya',
  'Teratai',
  'Kenari',
  'Mutiara',
  'Nusa',
  'Tanjung',
  'Wira',
];
const WORDS = ['Kreatif', 'Digital', 'Media', 'Komunika', 'Cipta', 'Ide', 'Grafika', 'Interaktif'];
const SUFFIXES = ['Sdn Bhd', 'Group Sdn Bhd', 'Tbk', 'Indonesia'];
const FIRST = [
  'Ahmad',
  'Nurul',
  'Siti',
  'Muhammad',
  'Tan',
  'Lim',
  'Priya',
  'Arjun',
  'Dewi',
  'Budi',
  'Rizky',
  'Ayu',
  'Putu',
  'Kadek',
  'Fajar',
  'Intan',
  'Hafiz',
  'Farah',
  'Agus',
  'Melati',
];
const LAST = [
  'Rahman',
  'Ismail',
  'Abdullah',
  'Wei Ming',
  'Mei Ling',
  'Nair',
  'Santoso',
  'Pratama',
  'Wulandari',
  'Hartono',
  'Lestari',
  'Setiawan',
  'Kusuma',
  'Nugroho',
  'Zainal',
  'Menon',
  'Rosli',
  'Wijaya',
  'Gunawan',
  'Maharani',
];
const TITLES = [...new Set([...DEMO_SUBMITTORS.map((s) => s.jobTitle), ...DEMO_JURORS.map((j) => j.jobTitle)])];
const STATUSES = ['pending', 'submitted', 'submitted', 'approved', 'approved', 'approved', 'approved', 'submitted', 'rejected', 'pending'];

/** `(array[...])[1 + (expr) % n]`: a deterministic pick from a list of texts. */
function pick(values: readonly string[], expr: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(array[${sql.join(values.map((v) => sql.lit(v)))}]::text[])[(1 + ((${expr}) % ${sql.lit(values.length)}))::int]`;
}

function tableOf(registry: EntityRegistry, name: string): LoadedEntity {
  const entity = registry.byName.get(name);
  if (!entity) throw new Error(`The bulk seed needs the "${name}" entity, which is not loaded.`);
  return entity;
}

async function idRange(db: Kysely<any>, table: string, after: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`select id from ${sql.table(table)} where id > ${after} order by id`.execute(db);
  return rows.rows.map((r) => Number(r.id));
}

async function maxId(db: Kysely<any>, table: string): Promise<number> {
  const row = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(db);
  return Number(row.rows[0]?.m ?? 0);
}

/**
 * Fills the database for benchmarks with set-based SQL: `INSERT ... SELECT ... FROM
 * generate_series` with deterministic choices from lists of realistic texts (no row passes
 * through Node). Customers, campaigns and contests are added to what exists; categories come
 * from the demo set when there are none. The contests table's managed indexes are dropped during
 * the load and rebuilt afterwards by the schema sync, then the tables are vacuumed and analysed
 * so index-only scans work at once.
 */
export async function bulkSeed(db: Kysely<any>, registry: EntityRegistry, options: BulkSeedOptions): Promise<BulkSeedReport> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const batch = options.batchSize ?? 100_000;
  const customersWanted = options.customers ?? Math.max(50, Math.round(options.contests / 100));
  const campaignsWanted = options.campaigns ?? Math.max(20, Math.round(options.contests / 1000));
  const category = tableOf(registry, 'category').descriptor.table;
  const customer = tableOf(registry, 'customer').descriptor.table;
  const campaign = tableOf(registry, 'campaign').descriptor.table;
  const contest = tableOf(registry, 'contest').descriptor.table;

  if ((await maxId(db, category)) === 0) {
    for (const c of DEMO_CATEGORIES) {
      const slug = c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      await sql`insert into ${sql.table(category)} (name, description, slug, status) values (${c.name}, ${c.description}, ${slug}, 'active')`.execute(db);
    }
  }
  const categoryIds = (await idRange(db, category, 0)).slice(0, 50);

  const g = sql`g`;
  const customerBase = await maxId(db, customer);
  await sql`insert into ${sql.table(customer)} (name, email, phone, company, job_title, is_active, max_entries, email_verified_at, created_at, updated_at)
    select ${pick(FIRST, g)} || ' ' || ${pick(LAST, sql`g / 20`)},
      'submittor' || (g + ${customerBase}) || '@' || ${pick(
        DEMO_COMPANIES.map((c) => c.domain),
        g,
      )},
      '+60 12-' || lpad(((g * 7919) % 10000000)::text, 7, '0'),
      ${pick(PREFIXES, g)} || ' ' || ${pick(WORDS, sql`g / 20`)} || ' ' || ${pick(SUFFIXES, sql`g / 160`)},
      ${pick(TITLES, sql`g * 7`)}, g % 13 <> 0, 10 + g % 91,
      case when g % 5 = 0 then null else timestamptz '2024-01-01 00:00:00+00' + g * interval '7 minutes' end,
      timestamptz '2024-01-01 00:00:00+00' + g * interval '5 minutes', timestamptz '2024-01-01 00:00:00+00' + g * interval '5 minutes'
    from generate_series(1::bigint, ${customersWanted}::bigint) g`.execute(db);
  const customerIds = await idRange(db, customer, customerBase);
  log(`customers: ${customerIds.length} added`);

  const campaignBase = await maxId(db, campaign);
  await sql`insert into ${sql.table(campaign)} (name, brand_name, status, start_date, end_date, hashtags, material_link, credit_to_partners, created_at, updated_at)
    select ${pick(
      DEMO_CAMPAIGNS.map((c) => c.name),
      g,
    )} || ' ' || (2023 + g % 3) || ' #' || g,
      ${pick(
        DEMO_CAMPAIGNS.map((c) => c.brand),
        sql`g * 3`,
      )},
      ${pick(['active', 'active', 'ended', 'inactive', 'draft'], g)},
      date '2023-01-01' + (g % 900)::int, date '2023-01-01' + (30 + g % 900 + g % 60)::int,
      ${pick(
        DEMO_CAMPAIGNS.map((c) => c.hashtags.join(' ')),
        g,
      )},
      'https://www.' || ${pick(
        DEMO_COMPANIES.map((c) => c.domain),
        g,
      )} || '/work/campaign-' || g,
      ${pick(
        DEMO_CAMPAIGNS.map((c) => c.partners),
        sql`g * 7`,
      )},
      now(), now()
    from generate_series(1::bigint, ${campaignsWanted}::bigint) g`.execute(db);
  const campaignIds = await idRange(db, campaign, campaignBase);
  log(`campaigns: ${campaignIds.length} added`);

  const contestIndexes = (
    await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${contest}`.execute(db)
  ).rows.filter((r) => MANAGED_PREFIXES.some((p) => r.name.startsWith(p)) && r.name.startsWith('ix_'));
  for (const index of contestIndexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  log(`contests: dropped ${contestIndexes.length} indexes for the load`);

  const c = DEMO_CAMPAIGNS;
  const customerArray = sql`${sql.lit(`{${customerIds.join(',')}}`)}::int[]`;
  const campaignArray = sql`${sql.lit(`{${campaignIds.join(',')}}`)}::int[]`;
  const categoryArray = sql`${sql.lit(`{${categoryIds.join(',')}}`)}::int[]`;
  const contestBase = await maxId(db, contest);
  // Generated contests belong to the current edition (when contests have one and one exists).
  const editionId = tableOf(registry, 'contest').schema.properties?.edition_id ? await defaultEditionId(db) : null;
  const editionColumn = editionId === null ? sql`` : sql`, edition_id`;
  const editionValue = editionId === null ? sql`` : sql`, ${editionId}::int`;
  for (let from = 1; from <= options.contests; from += batch) {
    const to = Math.min(options.contests, from + batch - 1);
    await sql`insert into ${sql.table(contest)} (campaign_id, customer_id, category_id, status, strategy, insight, creative_idea,
        connection_plan, objective_based_kpi, confidential_kpi, logo_url, campaign_kv_url, video_link, other, created_at, updated_at${editionColumn})
      select case when g % 5 = 0 then null else (${campaignArray})[(1 + (g * 31) % ${campaignIds.length})::int] end,
        (${customerArray})[(1 + (g * 7919) % ${customerIds.length})::int],
        (${categoryArray})[(1 + (g * 13) % ${categoryIds.length})::int],
        ${pick(STATUSES, sql`(g * 17) / 3`)},
        ${pick(
          c.map((x) => x.strategy),
          g,
        )}, ${pick(
          c.map((x) => x.insight),
          sql`g / 10`,
        )},
        ${pick(
          c.map((x) => x.idea),
          sql`g / 100`,
        )}, ${pick(
          c.map((x) => x.plan),
          sql`g * 3`,
        )},
        ${pick(
          c.map((x) => x.kpi),
          sql`g * 7`,
        )},
        case when g % 6 = 5 then null else ${pick(
          c.map((x) => x.confidentialKpi),
          sql`g / 3`,
        )} end,
        case when g % 7 = 6 then null else 'https://picsum.photos/seed/logo' || (g % 500) || '/240' end,
        'https://picsum.photos/seed/kv' || (g % 900) || '/1200/628',
        case when g % 5 = 3 then null else 'https://www.youtube.com/results?search_query=entry+' || (g + ${contestBase}) end,
        null,
        timestamptz '2024-01-01 00:00:00+00' + (g + ${contestBase}) * interval '1 minute' + (g % 53) * interval '1 second',
        timestamptz '2024-01-01 00:00:00+00' + (g + ${contestBase}) * interval '1 minute' + (g % 97) * interval '1 hour'${editionValue}
      from generate_series(${from}::bigint, ${to}::bigint) g`.execute(db);
    log(`contests: ${to} of ${options.contests} (${Math.round((Date.now() - started) / 1000)} s)`);
  }

  log('contests: rebuilding indexes');
  await syncEntityTables(db, registry.entities);
  // Fresh statistics matter: without them the planner filters the counters instead of seeking them.
  for (const table of [customer, campaign, contest, category, GROUP_COUNTS_TABLE, ROW_COUNTS_TABLE]) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  return { customers: customerIds.length, campaigns: campaignIds.length, contests: options.contests, seconds: Math.round((Date.now() - started) / 100) / 10 };
}
