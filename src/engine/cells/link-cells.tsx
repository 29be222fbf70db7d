import { ExternalLinkIcon } from '@radix-ui/react-icons';
import { Link, Text } from '@radix-ui/themes';
import { type ReactElement, useState } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellProps, toText } from './cell-types.js';
import { safeHttpUrl } from './safe-url.js';

/** An http(s) link opened in a new tab; any other scheme is shown as plain text, never as a link. */
export function LinkCell({ value, display }: CellProps): ReactElement {
  const { t } = useTranslation();
  const href = safeHttpUrl(value);
  if (!href) return <Text color="gray">{toText(value)}</Text>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
      {display.linkLabel ? t(display.linkLabel) : href}
      <ExternalLinkIcon aria-hidden style={{ marginLeft: 4, verticalAlign: 'middle' }} />
    </Link>
  );
}

/** A mailto link for a plausible e-mail address. */
export function EmailCell({ value }: CellProps): ReactElement {
  const text = toText(value).trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return <>{text}</>;
  return <Link href={`mailto:${text}`}>{text}</Link>;
}

/** A tel link: digits and a leading + only. */
export function PhoneCell({ value }: CellProps): ReactElement {
  const text = toText(value).trim();
  const digits = text.replace(/[^\d+]/g, '');
  if (digits.replace(/\+/g, '').length < 3) return <>{text}</>;
  return <Link href={`tel:${digits}`}>{text}</Link>;
}

/** A round thumbnail of an http(s) image, hidden when it fails to load. */
export function ImageCell({ value, place }: CellProps): ReactElement | null {
  const [failed, setFailed] = useState(false);
  const src = safeHttpUrl(value);
  if (!src || failed) return null;
  const size = place === 'detail' ? 96 : 36;
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      style={{ borderRadius: '50%', objectFit: 'cover', background: 'var(--gray-a3)', display: 'block' }}
    />
  );
}
