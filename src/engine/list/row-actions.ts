import type { ClientEntity } from '../../shared/descriptor/types.js';
import { registerExtension, registeredRowAction } from '../registry/extension-registry.js';
import type { RowActionContext, RowActionDefinition } from '../registry/extension-types.js';
import { ROW_ACTION_LOOKS, type RowActionButton } from '../widgets/row-actions.js';

/**
 * The row actions the engine ships, registered by name through `registerExtension` exactly as an
 * application registers its own: View Details (read), Edit (update) and Delete (delete, asking
 * first, busy while it runs).
 */
export const rowActions = {
  view: { ...ROW_ACTION_LOOKS.view, permission: 'read', target: ({ paths, record }) => ({ to: paths.detail(record.id) }) },
  edit: { ...ROW_ACTION_LOOKS.edit, permission: 'update', target: ({ paths, record }) => ({ to: paths.edit(record.id) }) },
  delete: {
    ...ROW_ACTION_LOOKS.delete,
    permission: 'delete',
    target: ({ record, confirmDelete }) => ({ onClick: () => confirmDelete(record) }),
    busy: ({ deleting }) => deleting,
  },
} as const satisfies Record<string, RowActionDefinition>;

registerExtension({ rowActions });

/** The registered row actions of the descriptor's `list.actions` the caller may use, in its order. */
export function permittedRowActions(entity: ClientEntity): Array<[string, RowActionDefinition]> {
  return entity.list.actions
    .map((name) => [name, registeredRowAction(name)] as const)
    .filter((pair): pair is [string, RowActionDefinition] => pair[1] !== undefined && entity.permissions[pair[1].permission]);
}

/** The buttons of one row. */
export function rowActionButtons(actions: ReadonlyArray<[string, RowActionDefinition]>, context: RowActionContext): RowActionButton[] {
  return actions.map(([name, { permission: _permission, target, busy, ...look }]) => ({ name, ...look, target: target(context), busy: busy?.(context) }));
}
