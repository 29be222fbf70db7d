/**
 * The lists of the page's preload block (`<script type="application/json" id="ac-preload">`, which
 * build.mjs writes) that the entry script asks for itself, the boot script asking for the rest:
 * `start`, the chunks of the app (start.tsx) that the sign-in page opened by itself does not load,
 * and `signIn`, that page's own (sign-in-start.tsx).
 */
export type EntryPreloadList = 'start' | 'signIn';

/** The chunks the page's preload block lists under `name` (none when it has no such list). */
export function entryPreloadList(name: EntryPreloadList): string[] {
  try {
    const list = (JSON.parse(document.getElementById('ac-preload')?.textContent ?? '{}') as Record<string, unknown>)[name];
    return Array.isArray(list) ? list.filter((file): file is string => typeof file === 'string') : [];
  } catch {
    return [];
  }
}

const asked = new Set<string>();

/** Asks for `files` as modules, together (`<link rel="modulepreload">`; each once), rather than one import level at a time. */
export function preloadModules(files: readonly string[]): void {
  for (const href of files) {
    if (asked.has(href)) continue;
    asked.add(href);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.appendChild(link);
  }
}
