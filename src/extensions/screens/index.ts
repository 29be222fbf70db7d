import type { RegisteredScreen } from '../../engine/registry/index.js';

/**
 * Screens (registered with the rest of the application's parts in `../client/index.ts`) beyond the descriptors' list, detail and form screens (STYLE §8.12-13: workflows as
 * registered screens over the engine), routed by the app like any other screen under the signed-in
 * layout; a descriptor links to one with `detail.links`. The judging screens (DESIGN §11): the jury
 * portal (jurors; admins view it read-only with `?jury_id=`) and an exam's judging screen (status,
 * auto-assign, assignment matrix, progress, reminders); a jury applicant's decision (approve or
 * reject, DESIGN §9); the results screens (DESIGN §12).
 */
export const screens: readonly RegisteredScreen[] = [
  { path: '/jury', roles: ['juror', 'admin'], load: () => import('../../features/judging/client/jury-portal-screen.js') },
  { path: '/exam-judging', roles: ['admin'], load: () => import('../../features/judging/client/exam-judging-screen.js') },
  { path: '/exam-judging/:id', roles: ['admin'], load: () => import('../../features/judging/client/exam-judging-screen.js') },
  { path: '/manage-exam/:id/results', roles: ['admin'], load: () => import('../../features/results/client/results-screen.js') },
  { path: '/manage-contest/:id/judging', roles: ['admin'], load: () => import('../../features/results/client/contest-judging-screen.js') },
  { path: '/manage-applicant/:id/decide', roles: ['admin'], load: () => import('../../features/judging/client/applicant-decision-screen.js') },
];
