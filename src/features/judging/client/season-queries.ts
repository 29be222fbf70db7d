import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { ExamPanel, JuryConflict, JuryConflictInput } from '../shared/season-types.js';
import { judgingKeys } from './query-keys.js';

/** An exam's panel with every active juror's load (`GET /api/exams/{id}/panel`). */
export const panelOptions = (examId: number) =>
  queryOptions({
    queryKey: judgingKeys.panel(examId),
    queryFn: ({ signal }) => http.get<{ data: ExamPanel }>(`/exams/${examId}/panel`, { signal }).then((answer) => answer.data),
  });

/** A juror's declared conflicts of interest (`GET /api/juries/{id}/conflicts`). */
export const conflictsOptions = (juryId: number) =>
  queryOptions({
    queryKey: judgingKeys.conflicts(juryId),
    queryFn: ({ signal }) => http.get<{ data: JuryConflict[] }>(`/juries/${juryId}/conflicts`, { signal }).then((answer) => answer.data),
  });

/** A season's writes: panels and declared conflicts. The caller refreshes with `invalidateJudging`. */
export const seasonApi = {
  /** Saves an exam's panel. */
  savePanel: (examId: number, juryIds: number[]) =>
    http.put<{ data: ExamPanel }>(`/exams/${examId}/panel`, { jury_ids: juryIds }).then((answer) => answer.data),
  /** Declares a conflict of interest for a juror (an admin's entry). */
  declare: (juryId: number, input: JuryConflictInput) => http.post<{ data: JuryConflict }>(`/juries/${juryId}/conflicts`, input).then((answer) => answer.data),
  /** Withdraws a juror's declared conflict. */
  withdraw: (juryId: number, conflictId: number) => http.delete(`/juries/${juryId}/conflicts/${conflictId}`),
};
