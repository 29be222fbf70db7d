import { EyeOpenIcon, Pencil1Icon, TrashIcon } from '@radix-ui/react-icons';
import { Flex, IconButton, Spinner, Tooltip } from '@radix-ui/themes';
import type { ComponentType, ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '../i18n/use-translation.js';

/** What a row action does: navigate to an in-app path, or run a handler. */
export type RowActionTarget = { to: string } | { onClick: () => void };

/** How a row action's icon button looks and is named. */
export interface RowActionLook {
  /** i18n key of its tooltip ('common.rowActions.edit'). */
  label: string;
  /** i18n key of its accessible name with the row's title as `{{name}}` ('Edit Acme Ltd'). */
  recordLabel: string;
  icon: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  color: 'gray' | 'blue' | 'red' | 'green' | 'amber' | 'orange' | 'purple' | 'cyan';
}

/** One button of a {@link RowActions} group. */
export interface RowActionButton extends RowActionLook {
  name: string;
  target: RowActionTarget;
  /** True while it runs: the button spins and is disabled. */
  busy?: boolean | undefined;
}

/** The look of the shipped view, edit and delete actions (the engine registers them by these names). */
export const ROW_ACTION_LOOKS = {
  view: { label: 'common.rowActions.view', recordLabel: 'common.rowActions.viewRecord', icon: EyeOpenIcon, color: 'gray' },
  edit: { label: 'common.rowActions.edit', recordLabel: 'common.rowActions.editRecord', icon: Pencil1Icon, color: 'blue' },
  delete: { label: 'common.rowActions.delete', recordLabel: 'common.rowActions.deleteRecord', icon: TrashIcon, color: 'red' },
} as const satisfies Record<string, RowActionLook>;

/** Props of {@link RowActions}: `actions`, or the shipped view / edit / delete, each shown only when given. */
export interface RowActionsProps {
  /** The row's title (a name, an e-mail), added to each button's accessible name. */
  recordLabel?: string | undefined;
  /** The buttons, in order (a list's registered row actions); when given, view / edit / onDelete are ignored. */
  actions?: readonly RowActionButton[] | undefined;
  view?: RowActionTarget | undefined;
  edit?: RowActionTarget | undefined;
  /** Delete always runs a handler (which asks for confirmation first). */
  onDelete?: (() => void) | undefined;
  /** True while this row's delete is in flight: the delete button spins and is disabled. */
  deleting?: boolean | undefined;
}

/** The shipped buttons a caller gave as `view`, `edit` and `onDelete`. */
function shippedButtons({ view, edit, onDelete, deleting }: RowActionsProps): RowActionButton[] {
  const buttons: RowActionButton[] = [];
  if (view) buttons.push({ name: 'view', ...ROW_ACTION_LOOKS.view, target: view });
  if (edit) buttons.push({ name: 'edit', ...ROW_ACTION_LOOKS.edit, target: edit });
  if (onDelete) buttons.push({ name: 'delete', ...ROW_ACTION_LOOKS.delete, target: { onClick: onDelete }, busy: deleting === true });
  return buttons;
}

/**
 * The row-action group of a list: icon buttons with a tooltip (View Details, Edit,
 * Delete, or a list's registered actions), in a labelled `group`. Each button's accessible name
 * carries the row's title ('Edit Acme Ltd') so a screen-reader user can tell the rows apart.
 * @example <RowActions recordLabel={row.name} edit={{ to: `/manage-category/edit/${row.id}` }} onDelete={confirmDelete} />
 */
export function RowActions(props: RowActionsProps): ReactElement {
  const { recordLabel } = props;
  const { t } = useTranslation();

  const button = (action: RowActionButton) => {
    const Icon = action.icon;
    const busy = action.busy === true;
    const label = t(action.label);
    const common = {
      size: '1',
      variant: 'ghost',
      color: action.color,
      'aria-label': recordLabel ? t(action.recordLabel, { name: recordLabel }) : label,
    } as const;
    return (
      <Tooltip key={action.name} content={label}>
        {'to' in action.target ? (
          <IconButton {...common} asChild>
            <RouterLink to={action.target.to}>
              <Icon aria-hidden="true" />
            </RouterLink>
          </IconButton>
        ) : (
          <IconButton {...common} type="button" onClick={action.target.onClick} disabled={busy} aria-busy={busy || undefined}>
            {busy ? <Spinner size="1" /> : <Icon aria-hidden="true" />}
          </IconButton>
        )}
      </Tooltip>
    );
  };

  return (
    <Flex role="group" aria-label={t('common.rowActions.group')} gap="3" align="center" justify="end">
      {(props.actions ?? shippedButtons(props)).map(button)}
    </Flex>
  );
}
