import type { AuthUser } from './api-contract.js';
import type { ClientEntity } from './descriptor/types.js';

/**
 * What the server hands the first-screen render (src/app/ssr/render-first-screen.tsx, on the thread
 * of src/server/first-screen/renderer.ts): the caller, its descriptors, and the list page the path shows.
 */
export interface FirstScreenInput {
  path: string;
  search: string;
  language: string;
  user: AuthUser;
  entities: ClientEntity[];
  entity: ClientEntity;
  list: unknown;
  /** The server's extra translations of `language` (LOCALES_DIR), merged over the shipped ones. */
  extraTranslations?: Record<string, unknown>;
  /** Whether this browser keeps the sidebar collapsed (its localStorage, which the server cannot see). */
  sidebarCollapsed?: boolean;
  /** The product's name (`{{product}}`: the brand and the page title's suffix); the default when absent. */
  product?: string;
}

/** What the render gives back: the screen's markup and the page title it sets. */
export interface FirstScreen {
  html: string;
  title: string;
}

/**
 * How many descriptor lists the render thread keeps: the last sent. The server's side forgets them in
 * the same order, so it never names one the thread no longer has (it sends that one again).
 */
export const KEPT_ENTITY_LISTS = 16;

/**
 * A render as the server's thread sends it to the render thread (src/server/first-screen/renderer.ts,
 * render-worker.ts): the input without its descriptors, which the thread keeps by `entitiesId` once
 * sent (`entities` comes with the first render that names them), and the entity by name when it is
 * one of them.
 */
export interface FirstScreenMessage {
  id: number;
  input: Omit<FirstScreenInput, 'entities' | 'entity'>;
  entitiesId: number;
  entities?: ClientEntity[];
  entityName?: string;
  entity?: ClientEntity;
}
