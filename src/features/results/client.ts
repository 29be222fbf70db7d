import type { ClientExtension } from '../../engine/index.js';

/** Results' client face: an exam's results and a contest's judging, each its own chunk. */
export const resultsClient: ClientExtension = {
  screens: [
    { path: '/manage-exam/:id/results', roles: ['admin'], load: () => import('./client/results-screen.js') },
    { path: '/manage-contest/:id/judging', roles: ['admin'], load: () => import('./client/contest-judging-screen.js') },
  ],
};
