/**
 * A URL slug of a text: lower case, ASCII letters and digits separated by single hyphens, accents
 * folded ('Best Use of Social!' → 'best-use-of-social'). Empty when nothing usable remains.
 */
export function slugify(text: string, maxLength = 120): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}
