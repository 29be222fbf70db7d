import type { DeleteImpact } from '../../../engine/index.js';
import { http } from '../../../engine/index.js';

/**
 * The exam's delete warning: how many grades the jurors gave in it (`GET /api/grades` filtered by the
 * exam, one row asked for, its total read), named in the user's language; nothing when there are none.
 */
export const examDeleteImpact: DeleteImpact = async (record, t) => {
  const answer = await http.get<{ meta?: { total?: number } }>('/grades', { query: { 'q[exam_id]': record.id, per_page: 1 } });
  const count = answer.meta?.total ?? 0;
  return count > 0 ? t('judging.criteria.delete_impact', { count }) : null;
};
