/**
 * Editions' shared face: the wire types of `GET/PUT /api/me/edition` and the archived rule, read by
 * the server, the client and other features.
 */
export type { CurrentEditionData, CurrentEditionUpdate, EditionSummary } from './shared/edition-contract.js';
export { ARCHIVED_STATUS, EDITION_ARCHIVED, isArchived } from './shared/edition-contract.js';
