import type { ClientExtension } from '../../engine/index.js';
import type { resultsNames } from './shared/extension-names.js';

/**
 * Results' client face: an exam's results, its moderation and a contest's judging (each its own chunk), the grade detail's scores cell, the
 * dashboard's charts panel (chart.js: loaded after the dashboard's first render), and the
 * placeholder of the award categories' route until a descriptor claims it.
 */
export const resultsClient: ClientExtension<typeof resultsNames> = {
  // The grade detail's `grade-scores` cell (a chunk of its own).
  lazy: () => import('./client/registrations.js'),
  screens: [
    { path: '/manage-exam/:id/results', roles: ['admin'], load: () => import('./client/results-screen.js') },
    { path: '/manage-exam/:id/moderation', roles: ['admin'], load: () => import('./client/moderation-screen.js') },
    { path: '/manage-contest/:id/judging', roles: ['admin'], load: () => import('./client/contest-judging-screen.js') },
  ],
  placeholders: [{ path: '/manage-award-category', titleKey: 'pages.titles.manageAwardCategory', descriptionKey: 'pages.placeholder.manageAwardCategory' }],
  dashboardPanels: [{ id: 'results-charts', order: 40, roles: ['admin'], deferred: true, load: () => import('./client/dashboard-charts.js') }],
};

export { invalidateResults } from './client/query-keys.js';
