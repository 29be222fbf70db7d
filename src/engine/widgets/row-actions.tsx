import { EyeOpenIcon, Pencil1Icon, TrashIcon } from '@radix-ui/react-icons';
import { Flex, IconButton, Spinner, Tooltip } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/** What a row action does: navigate to an in-app path, or run a handler. */
export type RowActionTarget = { to: string } | { onClick: () => void };

/** Props of {@link RowActions}; each action shows only when given. */
export interface RowActionsProps {
  /** The row's title (a name, an e-mail), added to each button's accessible name. */
  recordLabel?: string | undefined;
  view?: RowActionTarget | undefined;
  edit?: RowActionTarget | undefined;
  /** Delete always runs a handler (which asks for confirmation first). */
  onDelete?: (() => void) | undefined;
  /** True while this row's delete is in flight: the delete button spins and is disabled. */
  deleting?: boolean | undefined;
}

type ActionKind = 'view' | 'edit' | 'delete';

const ICONS = { view: EyeOpenIcon, edit: Pencil1Icon, delete: TrashIcon } as const;
const COLORS = { view: 'gray', edit: 'blue', delete: 'red' } as const;

/**
 * The row-action group of a list (spec §2): View Details, Edit, Delete as icon buttons with a
 * tooltip, in a labelled `group`. Each button's accessible name carries the row's title
 * ('Edit Acme Ltd') so a screen-reader user can tell the rows apart.
 * @example <RowActions recordLabel={row.name} edit={{ to: `/manage-category/edit/${row.id}` }} onDelete={confirmDelete} />
 */
export function RowActions({ recordLabel, view, edit, onDelete, deleting }: RowActionsProps): React.ReactElement {
  const { t } = useTranslation();
  const label = (kind: ActionKind) => t(`common.rowActions.${kind}`);
  const accessibleName = (kind: ActionKind) =>
    recordLabel ? t(`common.rowActions.${kind}Record`, { name: recordLabel }) : label(kind);

  const button = (kind: ActionKind, target: RowActionTarget) => {
    const Icon = ICONS[kind];
    const busy = kind === 'delete' && deleting === true;
    const common = { size: '1', variant: 'ghost', color: COLORS[kind], 'aria-label': accessibleName(kind) } as const;
    return (
      <Tooltip key={kind} content={label(kind)}>
        {'to' in target ? (
          <IconButton {...common} asChild>
            <RouterLink to={target.to}>
              <Icon aria-hidden="true" />
            </RouterLink>
          </IconButton>
        ) : (
          <IconButton {...common} type="button" onClick={target.onClick} disabled={busy} aria-busy={busy || undefined}>
            {busy ? <Spinner size="1" /> : <Icon aria-hidden="true" />}
          </IconButton>
        )}
      </Tooltip>
    );
  };

  return (
    <Flex role="group" aria-label={t('common.rowActions.group')} gap="3" align="center" justify="end">
      {view && button('view', view)}
      {edit && button('edit', edit)}
      {onDelete && button('delete', { onClick: onDelete })}
    </Flex>
  );
}
