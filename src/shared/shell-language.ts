/**
 * The language the served HTML shell (`index.html`, before any script runs) is written in, chosen
 * as the client's detector chooses: `?lng=`, then the `i18nextLng` cookie the app saves, then the
 * browser's `Accept-Language` (by its q-values), else English.
 */
export const SHELL_LANGUAGES = ['en', 'id', 'ms'] as const;
export type ShellLanguage = (typeof SHELL_LANGUAGES)[number];

/** The cookie the client's language detector writes (src/app/i18n.ts `LANGUAGE_STORAGE_KEY`). */
export const LANGUAGE_COOKIE = 'i18nextLng';

/** Longest header or value looked at; longer input is cut before it is parsed. */
const MAX_HEADER = 512;

function supported(tag: string | undefined): ShellLanguage | undefined {
  if (!tag || tag.length > 35) return undefined;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  return (SHELL_LANGUAGES as readonly string[]).includes(base ?? '') ? (base as ShellLanguage) : undefined;
}

/** The supported language `Accept-Language` prefers most (q-values honoured, order breaks ties). */
export function fromAcceptLanguage(header: string | undefined): ShellLanguage | undefined {
  if (!header) return undefined;
  const ranked = header
    .slice(0, MAX_HEADER)
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: supported(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.language !== undefined && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.language;
}

/** The language cookie's value from a `Cookie` header. */
function fromCookie(header: string | undefined): ShellLanguage | undefined {
  if (!header) return undefined;
  for (const part of header.slice(0, MAX_HEADER * 8).split(';')) {
    const [name, value] = part.split('=');
    if (name?.trim() === LANGUAGE_COOKIE) return supported(decodeURIComponent(value ?? ''));
  }
  return undefined;
}

/** The shell's language for a request's `?lng=`, `Cookie` and `Accept-Language`. */
export function shellLanguage(input: { lng?: unknown; cookie?: string | undefined; acceptLanguage?: string | undefined }): ShellLanguage {
  const lng = typeof input.lng === 'string' ? supported(input.lng) : undefined;
  return lng ?? fromCookie(input.cookie) ?? fromAcceptLanguage(input.acceptLanguage) ?? 'en';
}

/** The shell file of a language: `index.html` for English, `index.<lang>.html` for the others. */
export function shellFile(language: ShellLanguage): string {
  return language === 'en' ? 'index.html' : `index.${language}.html`;
}
