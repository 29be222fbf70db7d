/** Legal forms ignored when comparing company names (Malaysia, Indonesia and common English ones). */
const LEGAL_FORMS = new Set([
  'sdn',
  'bhd',
  'berhad',
  'pt',
  'tbk',
  'persero',
  'cv',
  'plt',
  'pte',
  'ltd',
  'limited',
  'inc',
  'incorporated',
  'llc',
  'llp',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'bv',
  'nv',
  'group',
]);

/**
 * The comparable form of a company name: lower case, punctuation dropped, and legal forms at either
 * end removed, so that 'PT. Maju Jaya, Tbk' and 'maju jaya' give the same key. Empty when nothing is
 * left (no company, or a name made only of legal forms): an empty key never matches anything.
 *
 * @example companyKey('Nusantara Digital Sdn. Bhd.') // 'nusantara digital'
 */
export function companyKey(name: string | null | undefined): string {
  if (!name) return '';
  const words = name
    .slice(0, 200)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  while (words.length > 1 && LEGAL_FORMS.has(words[0]!)) words.shift();
  while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1]!)) words.pop();
  if (words.length === 1 && LEGAL_FORMS.has(words[0]!)) return '';
  return words.join(' ');
}

/** Whether two company names name the same company for conflict-of-interest purposes. */
export function sameCompany(a: string | null | undefined, b: string | null | undefined): boolean {
  const key = companyKey(a);
  return key !== '' && key === companyKey(b);
}
