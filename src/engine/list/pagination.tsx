import { ChevronLeftIcon, ChevronRightIcon } from '@radix-ui/react-icons';
import { Button, Flex, Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { formatNumber } from '../ui/format-number.js';
import { pageItems, pageRange } from './pagination-items.js';

/** Props of {@link Pagination}. */
export interface PaginationProps {
  /** Current page, 1-based. */
  page: number;
  /** Last page (the server's `meta.last_page`). */
  lastPage: number;
  /** Records per page. */
  perPage: number;
  /** All records matching the list's filters. */
  total: number;
  /** Called with the page the user picked. */
  onPageChange(page: number): void;
  /** Disables the buttons, e.g. while the next page loads. */
  disabled?: boolean;
  /**
   * The address of a page, put on its button as `data-href`: the server's first screen, shown before
   * the app has loaded, follows it (src/app/boot.ts); the app itself uses `onPageChange`.
   */
  hrefFor?(page: number): string;
}

/**
 * The spec's pagination bar: 'Showing X to Y of N', Previous, at most five page numbers with
 * ellipses, Next. Renders nothing when there are no records.
 */
export function Pagination(props: PaginationProps): ReactElement | null {
  const { page, lastPage, perPage, total, onPageChange, disabled, hrefFor } = props;
  const { t, i18n } = useTranslation();
  if (total <= 0) return null;
  const { from, to } = pageRange(page, perPage, total);
  const last = Math.max(1, lastPage);

  return (
    <Flex asChild justify="between" align="center" gap="3" wrap="wrap" py="3">
      <nav aria-label={t('common.pagination.label')}>
        <Text size="2" color="gray" role="status">
          {t('common.pagination.showing', { from, to, total })}
        </Text>
        <Flex gap="1" align="center" wrap="wrap">
          <Button
            variant="soft"
            color="gray"
            size="2"
            disabled={disabled || page <= 1}
            data-href={page > 1 ? hrefFor?.(page - 1) : undefined}
            onClick={() => onPageChange(page - 1)}
          >
            <ChevronLeftIcon aria-hidden />
            {t('common.pagination.previous')}
          </Button>
          {pageItems(page, last).map((item) =>
            item.kind === 'ellipsis' ? (
              <Text key={`ellipsis-${item.key}`} size="2" color="gray" aria-hidden style={{ padding: '0 var(--space-1)' }}>
                …
              </Text>
            ) : (
              <Button
                key={item.page}
                size="2"
                variant={item.page === page ? 'solid' : 'soft'}
                color={item.page === page ? undefined : 'gray'}
                aria-current={item.page === page ? 'page' : undefined}
                aria-label={t('common.pagination.page', { page: item.page })}
                disabled={disabled && item.page !== page}
                data-href={item.page !== page ? hrefFor?.(item.page) : undefined}
                onClick={() => item.page !== page && onPageChange(item.page)}
                style={{ minWidth: 'var(--space-7)' }}
              >
                {formatNumber(i18n, item.page)}
              </Button>
            ),
          )}
          <Button
            variant="soft"
            color="gray"
            size="2"
            disabled={disabled || page >= last}
            data-href={page < last ? hrefFor?.(page + 1) : undefined}
            data-rel="next"
            onClick={() => onPageChange(page + 1)}
          >
            {t('common.pagination.next')}
            <ChevronRightIcon aria-hidden />
          </Button>
        </Flex>
      </nav>
    </Flex>
  );
}
