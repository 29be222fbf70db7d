import { ChevronRightIcon } from '@radix-ui/react-icons';
import { Flex, Link, Text } from '@radix-ui/themes';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '../i18n/use-translation.js';

/** One step of a breadcrumb trail: its already translated label and where it leads. */
export interface BreadcrumbItem {
  label: string;
  /** An in-app path (`/manage-category`) or an absolute http(s) URL; omitted for a plain label. */
  url?: string | undefined;
}

/** Props of {@link Breadcrumb}. */
export interface BreadcrumbProps {
  items: readonly BreadcrumbItem[];
}

/** How an item's URL may be rendered: an in-app route, an external http(s) link, or not at all. */
export function breadcrumbTarget(url: string | undefined): { kind: 'route' | 'external'; href: string } | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return { kind: 'route', href: url };
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? { kind: 'external', href: parsed.href } : null;
  } catch {
    return null;
  }
}

/**
 * A breadcrumb trail: a `nav` landmark with an ordered list; every item but the last links to its
 * URL; the last is the current page (`aria-current="page"`). URLs other than in-app paths and
 * http(s) are shown as plain text, never as links.
 * @example <Breadcrumb items={[{ label: 'Dashboard', url: '/dashboard' }, { label: 'Manage Category' }]} />
 */
export function Breadcrumb({ items }: BreadcrumbProps): React.ReactElement | null {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <nav aria-label={t('common.breadcrumb.label')}>
      <Flex asChild align="center" gap="1" wrap="wrap" m="0" p="0" style={{ listStyle: 'none' }}>
        <ol>
          {items.map((item, index) => {
            const last = index === items.length - 1;
            const target = last ? null : breadcrumbTarget(item.url);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a trail's steps have no id and the same label may stand at two depths; the position is the step's identity
              <Flex asChild key={`${index}-${item.label}`} align="center" gap="1">
                <li>
                  {target?.kind === 'route' ? (
                    <Link asChild size="2">
                      <RouterLink to={target.href}>{item.label}</RouterLink>
                    </Link>
                  ) : target?.kind === 'external' ? (
                    <Link size="2" href={target.href} rel="noopener noreferrer">
                      {item.label}
                    </Link>
                  ) : (
                    <Text size="2" color={last ? undefined : 'gray'} weight={last ? 'medium' : undefined} aria-current={last ? 'page' : undefined}>
                      {item.label}
                    </Text>
                  )}
                  {!last && <ChevronRightIcon aria-hidden="true" color="var(--gray-9)" />}
                </li>
              </Flex>
            );
          })}
        </ol>
      </Flex>
    </nav>
  );
}
