import type { ComponentType } from 'react';
import type { Role } from '../../shared/roles.js';

/** A workflow screen that is not an entity's list, detail or form, registered by path. */
export interface RegisteredScreen {
  /** The route path (react-router syntax). */
  path: string;
  /** Roles that may open it; others see /403. */
  roles: Role[];
  /** Loads the screen's module (its own chunk). */
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * The judging screens (DESIGN §11), registered here and routed by the app like any other screen:
 * the jury portal (jurors; admins view it read-only with `?jury_id=`) and an exam's judging
 * screen (status, auto-assign, assignment matrix, progress, reminders).
 */
export const screens: readonly RegisteredScreen[] = [
  { path: '/jury', roles: ['juror', 'admin'], load: () => import('./jury-portal-screen.js') },
  { path: '/exam-judging', roles: ['admin'], load: () => import('./exam-judging-screen.js') },
  { path: '/exam-judging/:id', roles: ['admin'], load: () => import('./exam-judging-screen.js') },
];
