/**
 * The page title a screen sets, as the server's render of a first screen learns it (src/app/ssr):
 * effects do not run there, so the title hooks report it while they render, on the server only.
 */
let listener: ((title: string) => void) | null = null;

/** Listens for the title of the render under way (null: stop listening). */
export function listenForServerTitle(next: ((title: string) => void) | null): void {
  listener = next;
}

/** Called by a title hook while it renders: passes `title` on when a server render listens (no document). */
export function reportServerTitle(title: string): void {
  if (listener && typeof document === 'undefined') listener(title);
}
