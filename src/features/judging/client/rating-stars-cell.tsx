import type { ReactElement } from 'react';
import type { CellProps } from '../../../engine/index.js';
import { useTranslation } from '../../../engine/index.js';

/** How many stars a rating is out of. */
export const RATING_STARS = 5;

/**
 * The rating in a stored value: a whole number of stars from 0 to {@link RATING_STARS} (a number,
 * or a numeric string from a numeric column), or `null` when there is none, so the field shows as
 * empty ('Not provided'). Fractions round to the nearest star.
 *
 * @example ratingOf(4) // 4
 * @example ratingOf('2.6') // 3
 * @example ratingOf(9) // null
 */
export function ratingOf(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number) || number < 0 || number > RATING_STARS) return null;
  return Math.round(number);
}

/**
 * A rating as stars ('★★★★☆'), read out as one image named '4 out of 5 stars' in the reader's
 * language. An application's own cell, registered in `../index.ts`; a descriptor uses it as
 * `"cell": "rating-stars"`. Plain characters, no icon set: the registration is loaded with the
 * app's first page (it holds the screens' routes), which stays small.
 */
export function RatingStarsCell({ value }: CellProps): ReactElement {
  const { t } = useTranslation();
  const rating = ratingOf(value) ?? 0;
  return (
    <span
      role="img"
      aria-label={t('common.cells.rating', { value: rating, max: RATING_STARS })}
      style={{ color: 'var(--amber-9)', whiteSpace: 'nowrap', letterSpacing: '0.1em' }}
    >
      {'★'.repeat(rating)}
      <span style={{ color: 'var(--gray-8)' }}>{'☆'.repeat(RATING_STARS - rating)}</span>
    </span>
  );
}
