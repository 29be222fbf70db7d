/** One deleted record as the trash lists it (`GET /api/trash`). */
export interface TrashItem {
  id: number;
  entity: string;
  /** The entity's endpoint (its list's path), null when the entity is no longer configured. */
  endpoint: string | null;
  record_id: number;
  title: string | null;
  deleted_at: string;
  expires_at: string;
  deleted_by: { id: number; name: string | null } | null;
}
