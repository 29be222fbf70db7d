import type { ClientExtension } from '../../engine/index.js';
import type { judgingNames } from './shared/extension-names.js';

/** The dashboard's judging panels: one chunk, three panels. */
const panels = () => import('./client/dashboard-panels.js');

/**
 * Judging's client face: the rating cell and its other cells, widget and delete warning (`lazy`:
 * a chunk of their own, which only signed-in screens wait for), the judging screens (each its own
 * chunk), the jury portal's and the judging screen's menu entries, the dashboard's figures, rounds
 * and latest contests, and the placeholders of the spec's judging routes that no descriptor claims yet.
 */
export const judgingClient: ClientExtension<typeof judgingNames> = {
  lazy: () => import('./client/registrations.js'),
  screens: [
    { path: '/jury', roles: ['juror', 'admin'], load: () => import('./client/jury-portal-screen.js') },
    { path: '/exam-judging', roles: ['admin'], load: () => import('./client/exam-judging-screen.js') },
    { path: '/exam-judging/:id', roles: ['admin'], load: () => import('./client/exam-judging-screen.js') },
    { path: '/manage-applicant/:id/decide', roles: ['admin'], load: () => import('./client/applicant-decision-screen.js') },
    // The spec's 'Submissions' entry: the contest list.
    { path: '/submissions', roles: ['admin'], redirect: '/manage-contest' },
  ],
  placeholders: [
    { path: '/manage-jury', titleKey: 'pages.titles.manageJury', descriptionKey: 'pages.placeholder.manageJury' },
    { path: '/manage-jury/:id', titleKey: 'pages.titles.juryDetail', descriptionKey: 'pages.placeholder.juryDetail' },
    { path: '/manage-jury/edit/:id', titleKey: 'pages.titles.editJury', descriptionKey: 'pages.placeholder.editJury' },
    { path: '/create-jury', titleKey: 'pages.titles.createJury', descriptionKey: 'pages.placeholder.createJury' },
    { path: '/manage-exam', titleKey: 'pages.titles.manageExaminations', descriptionKey: 'pages.placeholder.manageExaminations' },
    { path: '/manage-exam/:id', titleKey: 'pages.titles.examinationDetail', descriptionKey: 'pages.placeholder.examinationDetail' },
    { path: '/manage-applicant', titleKey: 'pages.titles.manageApplicant', descriptionKey: 'pages.placeholder.manageApplicant' },
  ],
  // A juror's menu is the 'jury' group alone, first; the contest and judging groups sit between
  // the shell's overview and setup.
  menuGroups: [
    { id: 'jury', order: 10 },
    { id: 'contest', order: 30 },
    { id: 'judging', order: 40 },
  ],
  menuEntries: [
    { group: 'jury', order: 10, to: '/jury', labelKey: 'nav.jury', icon: 'ReaderIcon', roles: ['juror'] },
    { group: 'jury', order: 20, to: '/profile', labelKey: 'nav.profile', icon: 'TokensIcon', roles: ['juror'] },
    { group: 'contest', order: 5, to: '/submissions', labelKey: 'nav.submissions', icon: 'FileTextIcon', roles: ['admin'] },
    { group: 'judging', order: 72, to: '/exam-judging', labelKey: 'judging.actions.judging', icon: 'ReaderIcon', roles: ['admin'] },
  ],
  dashboardPanels: [
    { id: 'judging-figures', order: 10, roles: ['admin'], load: () => panels().then((module) => ({ default: module.JudgingFigures })) },
    { id: 'judging-rounds', order: 20, roles: ['admin'], load: () => panels().then((module) => ({ default: module.JudgingRounds })) },
    { id: 'judging-latest-contests', order: 30, roles: ['admin'], load: () => panels().then((module) => ({ default: module.JudgingLatestContests })) },
  ],
};

export { invalidateJudging, invalidateJudgingDashboard, invalidateJuryWork } from './client/query-keys.js';
