/** An edition as the header's switcher and the banner read it. */
export interface EditionSummary {
  id: number;
  name: string;
  year: number;
  /** `draft`, `open`, `judging`, `closed` or `archived` (read-only). */
  status: string;
}

/** `GET /api/me/edition`: the caller's current edition, whether they chose it, and every edition (newest year first). */
export interface CurrentEditionData {
  current: EditionSummary | null;
  /** False when the current edition is the default (the newest not archived), not one they picked. */
  chosen: boolean;
  editions: EditionSummary[];
}

/** `PUT /api/me/edition`: the edition to work in. */
export interface CurrentEditionUpdate {
  edition_id: number;
}

/** The status that makes an edition read-only. */
export const ARCHIVED_STATUS = 'archived';

/** Whether an edition is read-only (archived). */
export const isArchived = (edition: Pick<EditionSummary, 'status'> | null | undefined): boolean => edition?.status === ARCHIVED_STATUS;

/** The `keyword` of the 409 a write into an archived edition answers (`errors[0].keyword`). */
export const EDITION_ARCHIVED = 'edition_archived';
