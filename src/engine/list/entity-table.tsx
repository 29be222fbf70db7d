import { ArrowDownIcon, ArrowUpIcon, CaretSortIcon } from '@radix-ui/react-icons';
import { Button, Checkbox, Link, Table } from '@radix-ui/themes';
import {
  type CellData,
  type ColumnDef,
  type RowData,
  rowSortingFeature,
  type SortingState,
  type TableFeatures,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import { type CSSProperties, type ReactElement, type ReactNode, useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ListColumn } from '../../shared/descriptor/types.js';
import { FieldValue } from '../cells/index.js';
import { entityPaths, fieldLabel, recordTitle } from '../data/entity-labels.js';
import type { EntityRecord } from '../data/entity-queries.js';
import { useTranslation } from '../i18n/use-translation.js';
import { RowActions } from '../widgets/row-actions.js';
import type { BulkSelection } from './bulk-bar.js';
import { permittedRowActions, rowActionButtons } from './row-actions.js';
import type { EntityListController } from './use-entity-list.js';

declare module '@tanstack/table-core' {
  interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> {
    /** The descriptor column a TanStack column was made from; absent for the actions column. */
    descriptorColumn?: ListColumn;
  }
}

const features = tableFeatures({ rowSortingFeature });

/** Long text wraps within a readable width; short values (slugs, dates, badges) stay on one line. */
function cellStyle(column: ListColumn | undefined): CSSProperties | undefined {
  if (!column) return undefined;
  return column.cell === 'truncate' ? { minWidth: 200, maxWidth: 360 } : { whiteSpace: 'nowrap' };
}
type Features = typeof features;

/** Props of {@link EntityTable}. */
export interface EntityTableProps {
  list: EntityListController;
  /** Asks before deleting a row (the confirm dialog), then deletes it. */
  onDelete(record: EntityRecord): void;
  /** The row being deleted, shown busy. */
  deletingId?: number;
  /** When the list has bulk actions: the selection, shown as a checkbox column. */
  selection?: BulkSelection;
}

/**
 * A body cell's content: its column's `cell` function called here (none of them holds a hook),
 * rather than through `FlexRender`, which renders the function as a component: two components a
 * cell fewer, some 400 a page of 15 rows, on the list's first screen and at each 'Next'.
 */
function cellContent(cell: { column: { columnDef: { cell?: unknown } }; getContext(): unknown }): ReactNode {
  const render = cell.column.columnDef.cell;
  return typeof render === 'function' ? (render as (context: unknown) => ReactNode)(cell.getContext()) : ((render ?? null) as ReactNode);
}

/**
 * The list's table: TanStack Table v9 columns made from the descriptor (the descriptor column in
 * `columnDef.meta`), server-side sorting mirrored from the URL, cells from the cell registry, and
 * the row actions the descriptor and the admin's permissions allow.
 */
export function EntityTable({ list, onDelete, deletingId, selection }: EntityTableProps): ReactElement {
  const { t } = useTranslation();
  const { entity } = list;
  const paths = entityPaths(entity);
  const can = entity.permissions;
  const actions = permittedRowActions(entity);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `paths` and `actions` are made again from the entity on each render: the entity and the actions' names stand for them, so the columns are not rebuilt every render
  const columns = useMemo<ColumnDef<Features, EntityRecord>[]>(() => {
    const defs: ColumnDef<Features, EntityRecord>[] = entity.list.columns.map((column) => {
      // Once per language (the columns are rebuilt when `t` changes), not at every page.
      const label = fieldLabel(entity, column, t, 'list');
      return {
        id: column.field,
        accessorFn: (row: EntityRecord) => row[column.field] as CellData,
        header: () => label,
        enableSorting: Boolean(column.sortable) && entity.list.sorts.includes(column.field),
        meta: { descriptorColumn: column },
        cell: ({ row }) => {
          const value = <FieldValue record={row.original} display={column} place="list" />;
          if (!column.linkToDetail || !can.read) return value;
          return (
            <Link asChild weight="medium">
              <RouterLink to={paths.detail(row.original.id)}>{value}</RouterLink>
            </Link>
          );
        },
      };
    });
    if (selection) {
      defs.unshift({
        id: 'select',
        header: () => (
          <Checkbox
            aria-label={t('dataio.bulk.select_page')}
            checked={selection.pageSelected || selection.allMatching}
            onCheckedChange={selection.togglePage}
          />
        ),
        enableSorting: false,
        cell: ({ row }) => (
          <Checkbox
            aria-label={t('dataio.bulk.select_row', { name: recordTitle(entity, row.original) })}
            checked={selection.allMatching || selection.ids.has(row.original.id)}
            onCheckedChange={() => selection.toggle(row.original.id)}
          />
        ),
      });
    }
    if (actions.length > 0) {
      defs.push({
        id: 'actions',
        header: () => t('common.actions'),
        enableSorting: false,
        cell: ({ row }) => (
          <RowActions
            recordLabel={recordTitle(entity, row.original)}
            actions={rowActionButtons(actions, { entity, record: row.original, paths, confirmDelete: onDelete, deleting: deletingId === row.original.id })}
          />
        ),
      });
    }
    return defs;
    // `t` changes identity with the language, which must re-render the headers.
  }, [entity, t, can.read, actions.map(([name]) => name).join(), deletingId, onDelete, selection]);

  const sorting: SortingState = [{ id: list.sort.field, desc: list.sort.direction === 'desc' }];
  const table = useTable({
    features,
    columns,
    data: list.rows,
    getRowId: (row) => String(row.id),
    manualSorting: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      if (first) list.toggleSort(first.id);
    },
  });

  return (
    <Table.Root variant="surface" size="2" aria-busy={list.isFetching || undefined}>
      <Table.Header>
        {table.getHeaderGroups().map((group) => (
          <Table.Row key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const canSort = header.column.getCanSort();
              const isActions = header.column.id === 'actions';
              const label = <table.FlexRender header={header} />;
              return (
                <Table.ColumnHeaderCell
                  key={header.id}
                  aria-sort={canSort ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
                  style={{ whiteSpace: 'nowrap', textAlign: isActions ? 'right' : undefined }}
                >
                  {canSort ? (
                    <Button
                      type="button"
                      variant="ghost"
                      color="gray"
                      highContrast
                      size="2"
                      onClick={header.column.getToggleSortingHandler()}
                      data-href={list.sortHref(header.column.id)}
                      style={{ fontWeight: 'inherit', gap: 'var(--space-1)' }}
                    >
                      {label}
                      {sorted === 'asc' ? (
                        <ArrowUpIcon aria-hidden />
                      ) : sorted === 'desc' ? (
                        <ArrowDownIcon aria-hidden />
                      ) : (
                        <CaretSortIcon aria-hidden color="var(--gray-9)" />
                      )}
                    </Button>
                  ) : (
                    label
                  )}
                </Table.ColumnHeaderCell>
              );
            })}
          </Table.Row>
        ))}
      </Table.Header>
      <Table.Body>
        {table.getRowModel().rows.map((row, index) => (
          // The markup <Table.Row align="center">, <Table.RowHeaderCell> and <Table.Cell> render,
          // written out: some 200 cells a page, each through Radix's props work, on the first
          // screen and at every 'Next' (the header keeps the components).
          // Keyed by place, not by record: 'Next' then updates the rows it has (their text and
          // links) instead of taking 15 rows down and building 15 new ones.
          // biome-ignore lint/suspicious/noArrayIndexKey: no state of a record lives in its row (selection and a delete in flight come by record id, in props), so a row is its place
          <tr key={index} className="rt-TableRow rt-r-va-middle">
            {row.getAllCells().map((cell) =>
              cell.column.id === entity.list.columns[0]?.field ? (
                <th key={cell.column.id} className="rt-TableCell rt-TableRowHeaderCell" scope="row">
                  {cellContent(cell)}
                </th>
              ) : (
                <td
                  key={cell.column.id}
                  className={cell.column.id === 'actions' ? 'rt-TableCell rt-r-ta-right' : 'rt-TableCell'}
                  style={cellStyle(cell.column.columnDef.meta?.descriptorColumn)}
                >
                  {/* What <Text as="div" size="2"> renders, without its props work: some 200 cells a page. */}
                  <div className="rt-Text rt-r-size-2">{cellContent(cell)}</div>
                </td>
              ),
            )}
          </tr>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
