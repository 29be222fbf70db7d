import type { ClientExtension } from '../../engine/index.js';

/**
 * Results' client face: an exam's results and a contest's judging (each its own chunk), the
 * dashboard's charts panel (chart.js: loaded after the dashboard's first render), and the
 * placeholder of the award categories' route until a descriptor claims it.
 */
export const resultsClient: ClientExtension = {
  screens: [
    { path: '/manage-exam/:id/results', roles: ['admin'], load: () => import('./client/results-screen.js') },
    { path: '/manage-contest/:id/judging', roles: ['admin'], load: () => import('./client/contest-judging-screen.js') },
  ],
  placeholders: [{ path: '/manage-award-category', titleKey: 'pages.titles.manageAwardCategory', descriptionKey: 'pages.placeholder.manageAwardCategory' }],
  dashboardPanels: [{ id: 'results-charts', order: 40, roles: ['admin'], deferred: true, load: () => import('./client/dashboard-charts.js') }],
};

export { invalidateResults } from './client/query-keys.js';
