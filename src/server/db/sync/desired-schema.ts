import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import { type FieldKind, fieldKind, isNullable } from '../../../shared/descriptor/schema-fields.js';
import type { JsonSchema, LoadedEntity } from '../../../shared/descriptor/types.js';

/** One column as the schema wants it. */
export interface DesiredColumn {
  name: string;
  /** SQL type used to create it. */
  sqlType: string;
  /** `information_schema.columns.data_type` of that type, to compare with the table. */
  dataType: string;
  notNull: boolean;
  default?: RawBuilder<unknown>;
  serial?: boolean;
}

/** A constraint, index or trigger the sync manages, named by a hash of its definition. */
export interface ManagedObject {
  kind: 'constraint' | 'index';
  table: string;
  name: string;
  create: RawBuilder<unknown>;
  /** Foreign keys are created after every table exists. */
  late?: boolean;
}

export interface DesiredTable {
  entity: LoadedEntity;
  table: string;
  columns: DesiredColumn[];
}

const TYPES: Record<FieldKind, [sqlType: string, dataType: string]> = {
  string: ['text', 'text'],
  enum: ['text', 'text'],
  date: ['date', 'date'],
  'date-time': ['timestamptz', 'timestamp with time zone'],
  integer: ['integer', 'integer'],
  bigint: ['bigint', 'bigint'],
  number: ['double precision', 'double precision'],
  boolean: ['boolean', 'boolean'],
  json: ['jsonb', 'jsonb'],
};

/** Prefixes of the objects the sync owns; others (a DBA's own index) are never touched. */
export const MANAGED_PREFIXES = ['ck_', 'uq_', 'fk_', 'ix_'];

/** A stable name under Postgres's 63-byte limit: prefix, table, columns, and a hash of the definition. */
export function objectName(prefix: string, table: string, columns: string[], definition: string): string {
  const hash = createHash('sha256').update(definition).digest('hex').slice(0, 8);
  return `${`${prefix}${table}_${columns.join('_')}`.slice(0, 52)}_${hash}`;
}

function kindOf(property: JsonSchema): FieldKind {
  return fieldKind(property) as FieldKind; // checked at load: every property has a kind
}

function defaultOf(name: string, property: JsonSchema): RawBuilder<unknown> | undefined {
  if ((name === 'created_at' || name === 'updated_at') && kindOf(property) === 'date-time') return sql`now()`;
  if (property.default === undefined) return undefined;
  if (kindOf(property) === 'json') return sql`${sql.lit(JSON.stringify(property.default))}::jsonb`;
  const value = property.default;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? sql.lit(value) : undefined;
}

/** The table an entity's schema describes: `id serial`, one column per stored field. */
export function desiredTable(entity: LoadedEntity): DesiredTable {
  const props = entity.schema.properties ?? {};
  const required = new Set(entity.schema.required ?? []);
  const columns: DesiredColumn[] = [];
  for (const [name, property] of Object.entries(props)) {
    if (entity.descriptor.virtual.includes(name) || Object.hasOwn(entity.descriptor.computed, name)) continue;
    const [sqlType, dataType] = TYPES[kindOf(property)];
    const managed = name === 'id' || name === 'created_at' || name === 'updated_at';
    columns.push({
      name,
      sqlType: name === 'id' ? 'serial' : sqlType,
      dataType,
      notNull: managed || (required.has(name) && !isNullable(property)),
      default: name === 'id' ? undefined : defaultOf(name, property),
      serial: name === 'id',
    });
  }
  return { entity, table: entity.descriptor.table, columns };
}
