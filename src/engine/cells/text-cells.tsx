import type { ReactElement } from 'react';
import { formatNumber } from '../../shared/format.js';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellProps, toText } from './cell-types.js';

/** Plain text. */
export function TextCell({ value }: CellProps): ReactElement {
  return <>{toText(value)}</>;
}

/** The first `limit` characters of `text`, ending at a word boundary when one is not too far back. */
export function cutAtWord(text: string, limit: number): string {
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return (space > limit / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/** Text cut at `display.truncate` characters in lists, the full text on hover; whole on a detail page. */
export function TruncateCell({ value, display, place }: CellProps): ReactElement {
  const text = toText(value);
  const limit = display.truncate ?? 50;
  if (place === 'detail' || text.length <= limit) {
    // <span className="rt-Text"> is what <Text> renders without props (cheaper for a list's many cells).
    return (
      <span className="rt-Text" style={{ whiteSpace: place === 'detail' ? 'pre-wrap' : undefined }}>
        {text}
      </span>
    );
  }
  return (
    <span className="rt-Text" title={text}>
      {`${cutAtWord(text, limit)}…`}
    </span>
  );
}

/** A number in the reader's locale. */
export function NumberCell({ value }: CellProps): ReactElement {
  const { i18n } = useTranslation();
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return <>{toText(value)}</>;
  return <>{formatNumber(number, i18n.language || 'en')}</>;
}
