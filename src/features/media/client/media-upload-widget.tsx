import { Button, Flex, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type ReactElement, useRef, useState } from 'react';
import { ApiError, describeError, http, useTranslation } from '../../../engine/index.js';
import type { MediaAnswer } from '../index.js';
import { MediaView } from './media-view.js';

/** What the file picker offers; the server still reads the type from the content. */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,application/pdf';

/**
 * RJSF widget `media-upload` for a `string` field: uploads the chosen file (`POST /api/media`,
 * multipart) and stores `/api/media/<id>`; shows the stored file (a picture from the console, a
 * PDF as a link, an external URL as a link); Remove empties the field. With `ui:options.contest`
 * (an entry's id) the file is tied to that entry at once.
 */
export function MediaUploadWidget(props: WidgetProps): ReactElement {
  const { id, value, onChange, disabled, readonly, options } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locked = Boolean(disabled || readonly || busy);
  const contest = typeof options.contest === 'number' ? options.contest : undefined;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const answer = await http.uploadForm<MediaAnswer>('/media', form, contest ? { query: { contest } } : {});
      queryClient.setQueryData(['media', answer.data.id], answer.data);
      onChange(answer.data.value);
    } catch (failure) {
      const item = failure instanceof ApiError ? failure.errors?.find((e) => e.path === 'file') : undefined;
      setError(item ? t(item.messageKey, item.params) : describeError(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="2" data-testid={`media-upload-${id}`}>
      {value ? (
        <MediaView value={value} size="detail" alt={t('media.current')} />
      ) : (
        <Text color="gray" size="2">
          {t('media.none')}
        </Text>
      )}
      <Flex gap="2" align="center" wrap="wrap">
        <input ref={input} id={id} type="file" accept={ACCEPT} hidden disabled={locked} onChange={(event) => void choose(event)} />
        <Button type="button" variant="soft" disabled={locked} onClick={() => input.current?.click()} aria-describedby={`${id}-media-hint`}>
          {busy ? t('media.uploading') : value ? t('media.replace') : t('media.choose')}
        </Button>
        {value && !locked ? (
          <Button type="button" variant="ghost" color="red" onClick={() => onChange(undefined)}>
            {t('media.remove')}
          </Button>
        ) : null}
      </Flex>
      <Text id={`${id}-media-hint`} size="1" color="gray">
        {t('media.hint')}
      </Text>
      {error ? (
        <Text size="2" color="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}
