import type { ComponentType } from 'react';

/** A screen an extension adds to the console: its path, who may open it, and its lazily loaded component. */
export interface ScreenRegistration {
  path: string;
  roles: readonly string[];
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * Screens beyond the descriptors' list, detail and form screens (STYLE §8.12-13: workflows as
 * registered screens over the engine). The shell mounts each under the signed-in layout; a
 * descriptor links to one with `detail.links`.
 */
export const extensionScreens: readonly ScreenRegistration[] = [
  { path: '/manage-exam/:id/results', roles: ['admin'], load: () => import('./results/results-screen.js') },
  { path: '/manage-contest/:id/judging', roles: ['admin'], load: () => import('./results/contest-judging-screen.js') },
];
