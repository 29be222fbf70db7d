import type { RoleDeclaration } from '../../shared/roles.js';

/**
 * Entrants' shared face: the role it declares and the portal's wire types. Both faces register
 * {@link entrantRoles}: the server checks routes against it and adds `customerId` to the signed-in
 * user; the client's guards send an entrant to `/entries` and keep them out of the console.
 */

/** The role of a submittor's account: the entrant portal only (`/entries`, `/api/my/...`). */
export const ENTRANT_ROLE = 'entrant';

/** The entity a submittor's account stands for, and the entity of the entries they write. */
export const SUBMITTOR_ENTITY = 'customer';
export const ENTRY_ENTITY = 'contest';

/** `entrant` lands on `/entries` and stands for one submittor record (`users.customer_id`, `customerId` on the signed-in user). */
export const entrantRoles: readonly RoleDeclaration[] = [
  {
    name: ENTRANT_ROLE,
    home: '/entries',
    link: {
      entity: SUBMITTOR_ENTITY,
      column: 'customer_id',
      userField: 'customerId',
      messages: { invalid: 'entrants.errors.customerInvalid', unknown: 'entrants.errors.customerUnknown', notThisRole: 'entrants.errors.customerEntrantOnly' },
    },
  },
];

/** An entry's statuses as an entrant sees them: a draft they still edit, then the review's. */
export const DRAFT_STATUS = 'draft';
export const SUBMITTED_STATUS = 'submitted';

/** One of the entrant's entries, as listed and read (`data` of `/api/my/contests[/{id}]`). */
export interface MyEntry {
  id: number;
  status: string;
  edition_id: number | null;
  edition_name: string | null;
  category_id: number;
  category_name: string | null;
  /** Whether the entrant may still change it (a draft in an edition still taking entries). */
  editable: boolean;
  /** When its edition stops taking entries, if it says. */
  closes_at: string | null;
  created_at: string;
  updated_at: string;
  /** The portal form's fields, by name. */
  values: Record<string, unknown>;
  /** Once results are published: the awards it won (name of the award category and the award's rank or label). */
  awards: Array<{ award: string; category: string | null }>;
  /**
   * Once results are published: the juror remarks the programme publishes (exams with
   * `publish_remarks`), anonymous: the text and the exam's name and round, never the juror.
   */
  remarks: Array<{ exam: string; round: number; remark: string }>;
}

/** An edition and category the entrant may enter now, with how many entries they have left. */
export interface EntryOptions {
  editions: Array<{ id: number; name: string; closes_at: string | null }>;
  categories: Array<{ id: number; name: string; description: string | null }>;
  /** The submittor's limit and how many entries (any status) they have. */
  max_entries: number;
  used: number;
}

/** The portal form as the browser builds it: the body schema, uiSchema, order, required-to-submit fields and messages. */
export interface PortalForm {
  schema: Record<string, unknown>;
  uiSchema: Record<string, Record<string, unknown>>;
  fields: string[];
  required: string[];
  messages: Record<string, Record<string, string>>;
}
