import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const TRANSLATED = ['id', 'ms'] as const;
type Lang = (typeof TRANSLATED)[number];
type Tree = { [key: string]: string | Tree };

interface Term {
  term: string;
  en: string;
  id: string;
  ms: string;
  forbidden: Partial<Record<Lang, string[]>>;
  exceptKeys?: string[];
  /** Anchor keys per language that must use the term's word (key -> word, whole word, any case). */
  required?: Partial<Record<Lang, Record<string, string>>>;
}

const glossary = JSON.parse(fs.readFileSync(path.join(root, 'locales', 'glossary.json'), 'utf8')) as { terms: Term[] };

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else flatten(value, full, out);
  }
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A whole-word, any-case pattern for a word or phrase (letters or digits may not touch it), also
 * with the clitics Indonesian and Malay attach to a word ('pengirimnya', 'menyuntingnya', 'editlah').
 */
function wordPattern(word: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word).replace(/ /g, '\\s+')}(?:nya|lah|kah|mu|ku)?(?![\\p{L}\\p{N}])`, 'iu');
}

/** Every `lang: key uses "word" (term)` for the forbidden words in `texts`. */
function forbiddenUses(lang: Lang, texts: Map<string, string>, terms: Term[]): string[] {
  const found: string[] = [];
  for (const term of terms) {
    for (const word of term.forbidden[lang] ?? []) {
      const pattern = wordPattern(word);
      for (const [key, text] of texts) {
        if (term.exceptKeys?.includes(key)) continue;
        // Interpolation variables ({{count}}) are names, not words a reader sees.
        if (pattern.test(text.replace(/\{\{[^}]*\}\}/g, ' '))) found.push(`${lang}: ${key} uses "${word}" (${term.term}: say "${term[lang]}")`);
      }
    }
  }
  return found;
}

/** Every `lang: key does not use "word" (term)` for the anchors in `texts` (a missing key counts too). */
function missingAnchors(lang: Lang, texts: Map<string, string>, terms: Term[]): string[] {
  const found: string[] = [];
  for (const term of terms) {
    for (const [key, word] of Object.entries(term.required?.[lang] ?? {})) {
      const text = texts.get(key);
      if (text === undefined || !wordPattern(word).test(text.replace(/\{\{[^}]*\}\}/g, ' ')))
        found.push(`${lang}: ${key} does not use "${word}" (${term.term})`);
    }
  }
  return found;
}

const locale = (lang: string) => flatten(JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'common.json'), 'utf8')) as Tree);

describe('glossary', () => {
  it('gives every term its word in en, id and ms and a list of forbidden words per translated language', () => {
    expect(glossary.terms.length).toBeGreaterThan(15);
    for (const term of glossary.terms) {
      for (const lang of ['en', 'id', 'ms'] as const) expect(term[lang], `${term.term} ${lang}`).toMatch(/\S/);
      for (const lang of TRANSLATED) expect(term.forbidden[lang]?.length, `${term.term} forbidden ${lang}`).toBeGreaterThan(0);
    }
  });

  it('matches forbidden words whole, in any case, and not inside other words or variables', () => {
    const terms: Term[] = [{ term: 'contest', en: 'Contest', id: 'Karya', ms: 'Penyertaan', forbidden: { id: ['kontes'], ms: ['edit'] } }];
    const texts = new Map([
      ['a', 'Kontes baru'],
      ['b', 'Karya baru'],
      ['c', 'Lihat {{kontes}}'],
      ['d', 'kredit kepada rakan kongsi'],
      ['e', 'Daftar KONTES.'],
      ['f', 'Milik pengirim kontesnya.'],
      ['g', 'Kontestan'],
    ]);
    expect(forbiddenUses('id', texts, terms)).toEqual([
      'id: a uses "kontes" (contest: say "Karya")',
      'id: e uses "kontes" (contest: say "Karya")',
      'id: f uses "kontes" (contest: say "Karya")',
    ]);
    expect(forbiddenUses('ms', texts, terms)).toEqual([]);
  });

  it.each(TRANSLATED)('finds no word the glossary forbids in locales/%s/common.json', (lang) => {
    expect(forbiddenUses(lang, locale(lang), glossary.terms)).toEqual([]);
  });

  it('checks that an anchor key uses its word, whole and in any case', () => {
    const terms: Term[] = [
      {
        term: 'field / column',
        en: 'Field',
        id: 'Isian / Kolom',
        ms: 'Medan / Lajur',
        forbidden: {},
        required: { id: { a: 'isian', b: 'isian', c: 'kolom' } },
      },
    ];
    const texts = new Map([
      ['a', 'Isian ini wajib diisi'],
      ['b', 'Kolom ini wajib diisi'],
    ]);
    expect(missingAnchors('id', texts, terms)).toEqual(['id: b does not use "isian" (field / column)', 'id: c does not use "kolom" (field / column)']);
    expect(missingAnchors('ms', texts, terms)).toEqual([]);
  });

  it('keeps the things the glossary splits apart (exam and grading, field and column, grade and score) on their own words', () => {
    expect(glossary.terms.filter((term) => term.required).length).toBeGreaterThanOrEqual(5);
    for (const term of ['grading (the act of giving grades)', 'field / column', 'record', 'results', 'shortlist'])
      expect(glossary.terms.map((t) => t.term)).toContain(term);
    expect(TRANSLATED.flatMap((lang) => missingAnchors(lang, locale(lang), glossary.terms))).toEqual([]);
  });

  it('addresses the reader as "Anda" (capitalised) in Indonesian', () => {
    const lower = [...locale('id')].filter(([, text]) => /(?<![\p{L}])anda(?![\p{L}])/u.test(text)).map(([key]) => key);
    expect(lower).toEqual([]);
  });
});
