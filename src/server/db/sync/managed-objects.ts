import { sql } from 'kysely';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { groupCountIndexes } from './counters.js';
import { type ManagedObject, objectName } from './desired-schema.js';

function check(table: string, column: string, label: string, condition: ReturnType<typeof sql>): ManagedObject {
  const definition = `${table}.${column}.${label}`;
  const name = objectName('ck_', table, [column], definition);
  return {
    kind: 'constraint',
    table,
    name,
    create: sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} check (${condition})`,
  };
}

function index(table: string, columns: string[], method: 'btree' | 'trgm', include: string[] = []): ManagedObject {
  // Included columns are named after the key ones: an index without any keeps its name.
  const name = objectName(
    'ix_',
    table,
    [...columns, ...include],
    `${table}(${columns.join(',')}) ${method}${include.length ? ` include(${include.join(',')})` : ''}`,
  );
  const body =
    method === 'trgm'
      ? sql`using gin (${sql.ref(columns[0]!)} gin_trgm_ops)`
      : include.length
        ? sql`(${sql.join(columns.map((column) => sql.ref(column)))}) include (${sql.join(include.map((column) => sql.ref(column)))})`
        : sql`(${sql.join(columns.map((column) => sql.ref(column)))})`;
  return { kind: 'index', table, name, create: sql`create index ${sql.id(name)} on ${sql.table(table)} ${body}` };
}

/**
 * Every constraint and index the entities' schemas and descriptors call for: CHECKs for enums,
 * lengths and ranges; unique constraints; foreign keys with an index; a (field, id) index per
 * sort; an index per filtered field (a trigram index for substring filters and search fields,
 * on the related table for a filter through a relation).
 */
export function managedObjects(entities: readonly LoadedEntity[]): ManagedObject[] {
  const objects = new Map<string, ManagedObject>();
  const add = (object: ManagedObject) => objects.set(object.name, object);
  const byName = new Map(entities.map((entity) => [entity.descriptor.name, entity]));

  for (const entity of entities) {
    const { table, virtual } = entity.descriptor;
    const d = entity.descriptor;
    for (const [column, property] of Object.entries(entity.schema.properties ?? {})) {
      if (virtual.includes(column) || Object.hasOwn(d.computed, column)) continue;
      const ref = sql.ref(column);
      if (Array.isArray(property.enum) && fieldKind(property) === 'enum') {
        const values = property.enum.filter((value) => value !== null);
        add(check(table, column, `in ${JSON.stringify(values)}`, sql`${ref} in (${sql.join(values.map((v) => sql.lit(String(v))))})`));
      }
      if (typeof property.maxLength === 'number')
        add(check(table, column, `max ${property.maxLength}`, sql`char_length(${ref}) <= ${sql.lit(property.maxLength)}`));
      if (typeof property.minLength === 'number')
        add(check(table, column, `min ${property.minLength}`, sql`char_length(${ref}) >= ${sql.lit(property.minLength)}`));
      if (typeof property.minimum === 'number') add(check(table, column, `gte ${property.minimum}`, sql`${ref} >= ${sql.lit(property.minimum)}`));
      if (typeof property.maximum === 'number') add(check(table, column, `lte ${property.maximum}`, sql`${ref} <= ${sql.lit(property.maximum)}`));
    }
    for (const entry of d.unique) {
      const columns = Array.isArray(entry) ? entry : [entry];
      const name = objectName('uq_', table, columns, `${table} unique (${columns.join(',')})`);
      add({
        kind: 'constraint',
        table,
        name,
        create: sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} unique (${sql.join(columns.map((c) => sql.ref(c)))})`,
      });
    }
    for (const relation of Object.values(d.relations)) {
      const target = byName.get(relation.entity)!.descriptor.table;
      const onDelete = relation.onDelete === 'set-null' ? sql`set null` : sql`restrict`;
      const name = objectName('fk_', table, [relation.field], `${table}.${relation.field} -> ${target}.id ${relation.onDelete}`);
      add({
        kind: 'constraint',
        table,
        name,
        late: true,
        create: sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} foreign key (${sql.ref(relation.field)}) references ${sql.table(target)} (id) on delete ${onDelete}`,
      });
      add(index(table, [relation.field], 'btree'));
    }
    // A list sorted by one column and filtered by a range on another (contests by status, created
    // from a date) reads the range column from a covering `(sort, id) include (range)` index
    // (index-only), not from each row: at a deep page the planner otherwise reads the whole table.
    const ranged = [...new Set(d.list.filters.filter((f) => (f.operator === 'gte' || f.operator === 'lte') && !f.field.includes('.')).map((f) => f.field))];
    for (const sort of new Set([...d.list.sorts, d.list.defaultSort.field])) {
      if (sort === 'id') continue;
      add(index(table, [sort, 'id'], 'btree'));
      const include = ranged.filter((column) => column !== sort);
      if (include.length > 0) add(index(table, [sort, 'id'], 'btree', include));
    }
    for (const filter of d.list.filters) {
      const [first, second] = filter.field.split('.') as [string, string | undefined];
      const method = filter.operator === 'ilike' ? 'trgm' : 'btree';
      if (second === undefined) {
        add(index(table, [first], method));
      } else {
        const relation = d.relations[first]!;
        add(index(table, [relation.field], 'btree'));
        add(index(byName.get(relation.entity)!.descriptor.table, [second], method));
      }
    }
    for (const field of d.list.search) add(index(table, [field], 'trgm'));
    groupCountIndexes(entity).forEach(add);
  }
  return [...objects.values()];
}
