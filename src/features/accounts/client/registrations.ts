import { EnvelopeClosedIcon } from '@radix-ui/react-icons';
import type { ClientExtension } from '../../../engine/index.js';
import type { accountsNames } from '../index.js';
import { PortalAccountCell } from './portal-account-cell.js';

/**
 * Accounts' cell and row action: code only signed-in screens run, loaded from the client face's
 * `lazy` (a chunk of its own, not the sign-in page's).
 */
const accountsRegistrations: ClientExtension<typeof accountsNames> = {
  cells: { 'portal-account': { component: PortalAccountCell, isEmpty: (value) => value === null || value === undefined } },
  widgets: {},
  filterInputs: {},
  rowActions: {
    'portal-invite': {
      label: 'accounts.portal.rowAction',
      recordLabel: 'accounts.portal.rowActionRecord',
      icon: EnvelopeClosedIcon,
      color: 'green',
      permission: 'update',
      target: ({ record }) => ({ to: `/jury-portal-invites?select=${encodeURIComponent(String(record.id))}` }),
    },
  },
};
export default accountsRegistrations;
