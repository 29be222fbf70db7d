import { DownloadIcon } from '@radix-ui/react-icons';
import { Button, DropdownMenu, Flex, Text } from '@radix-ui/themes';
import { type ReactElement, useState } from 'react';
import { formatBytes, formatNumber } from '../../shared/format.js';
import { describeError } from '../data/api-error.js';
import { toListQuery } from '../data/entity-queries.js';
import { http, type QueryParams } from '../data/http-client.js';
import { useTranslation } from '../i18n/use-translation.js';
import { useToasts } from '../ui/toast-context.js';
import type { EntityListController } from './use-entity-list.js';

type Format = 'csv' | 'xlsx';

/** Hands a downloaded file to the browser as a download. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const NEWLINE = 10;

/**
 * The list's Export menu (CSV or Excel): downloads the whole list with its current filters,
 * search and sort, in the reader's language. While a large file arrives it shows the progress
 * (rows so far of the total the server announced, counted by line for CSV; the size for XLSX).
 */
export function ExportButton({ list }: { list: EntityListController }): ReactElement {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const [progress, setProgress] = useState<string | null>(null);

  const run = async (format: Format) => {
    const request = { page: 1, sort: list.sort.field, direction: list.sort.direction, search: list.search, filters: list.filters };
    const query: QueryParams = { ...toListQuery(request), format, lang: i18n.language?.slice(0, 2) };
    delete query.page;
    let total = 0;
    let lines = 0;
    setProgress(t('dataio.export.starting'));
    try {
      const file = await http.download(`/${list.entity.endpoint}/export`, {
        query,
        onStart: (response) => {
          total = Number(response.headers.get('x-total-count') ?? 0);
        },
        onProgress: (received, chunk) => {
          if (format === 'csv') {
            for (const byte of chunk) if (byte === NEWLINE) lines++;
            // The header is one line; a quoted line break counts too, so the figure is capped.
            setProgress(
              t('dataio.export.progress', {
                done: formatNumber(Math.min(Math.max(0, lines - 1), total), i18n.language),
                total: formatNumber(total, i18n.language),
              }),
            );
          } else {
            setProgress(t('dataio.export.received', { size: formatBytes(received, i18n.language) }));
          }
        },
      });
      saveFile(file.blob, file.filename ?? `${list.entity.endpoint}.${format}`);
      toasts.success(t('dataio.export.done', { count: total }));
    } catch (error) {
      toasts.error(t('dataio.export.failed', { message: describeError(error, t) }));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Flex align="center" gap="2">
      {progress && (
        <Text size="1" color="gray" role="status" aria-live="polite">
          {progress}
        </Text>
      )}
      <DropdownMenu.Root>
        <DropdownMenu.Trigger>
          <Button variant="soft" size="2" disabled={progress !== null}>
            <DownloadIcon aria-hidden />
            {t('dataio.export.button')}
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content>
          <DropdownMenu.Item onSelect={() => void run('csv')}>{t('dataio.export.csv')}</DropdownMenu.Item>
          <DropdownMenu.Item onSelect={() => void run('xlsx')}>{t('dataio.export.xlsx')}</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </Flex>
  );
}
