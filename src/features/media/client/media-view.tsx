import { ExternalLinkIcon, FileTextIcon } from '@radix-ui/react-icons';
import { Link, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { safeHttpUrl, useTranslation } from '../../../engine/index.js';
import { mediaIdOfValue } from '../index.js';
import { mediaItemOptions } from './queries.js';

/** How big a picture shows: a list's round thumbnail, a detail page's, or the jury portal's full width. */
export type MediaSize = 'list' | 'detail' | 'large';

const SIDE: Record<Exclude<MediaSize, 'large'>, number> = { list: 36, detail: 160 };

/**
 * A stored value shown safely: a console file (`/api/media/<id>`) as its picture from the console
 * itself (a signed link; a PDF as a download link), an external http(s) URL as a link only (never
 * loaded as an image: the CSP allows the console's own images alone), anything else as text.
 */
export function MediaView({ value, size, alt }: { value: unknown; size: MediaSize; alt?: string }): ReactElement | null {
  const { t } = useTranslation();
  const id = mediaIdOfValue(value);
  if (id !== null) return <StoredMedia id={id} size={size} alt={alt ?? ''} />;
  const external = safeHttpUrl(value);
  if (external) {
    return (
      <Link href={external} target="_blank" rel="noopener noreferrer nofollow" style={{ wordBreak: 'break-all' }} data-testid="media-external-link">
        {t('media.external_link')}
        <ExternalLinkIcon aria-hidden style={{ marginLeft: 4, verticalAlign: 'middle' }} />
      </Link>
    );
  }
  return typeof value === 'string' && value.trim() ? <Text color="gray">{value}</Text> : null;
}

function StoredMedia({ id, size, alt }: { id: number; size: MediaSize; alt: string }): ReactElement | null {
  const { t } = useTranslation();
  const item = useQuery(mediaItemOptions(id));
  if (item.isPending)
    return (
      <Text color="gray" size="1">
        {t('media.loading')}
      </Text>
    );
  if (!item.data)
    return (
      <Text color="gray" size="1">
        {t('media.unavailable')}
      </Text>
    );
  const file = item.data;
  if (file.type === 'application/pdf') {
    return (
      <Link href={file.url} download={file.name ?? `media-${file.id}.pdf`}>
        <FileTextIcon aria-hidden style={{ marginRight: 4, verticalAlign: 'middle' }} />
        {t('media.pdf', { name: file.name ?? `media-${file.id}.pdf` })}
      </Link>
    );
  }
  if (size === 'large') {
    return (
      <img
        src={file.url}
        alt={alt}
        width={file.width ?? undefined}
        height={file.height ?? undefined}
        data-media-id={file.id}
        style={{ maxWidth: '100%', height: 'auto', borderRadius: 6, display: 'block' }}
      />
    );
  }
  const side = SIDE[size];
  return (
    <img
      src={file.thumbnail_url ?? file.url}
      alt={alt}
      width={side}
      height={side}
      loading="lazy"
      data-media-id={file.id}
      style={{ borderRadius: size === 'list' ? '50%' : 6, objectFit: 'cover', background: 'var(--gray-a3)', display: 'block' }}
    />
  );
}
