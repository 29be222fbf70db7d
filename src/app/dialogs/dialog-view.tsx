import { Cross2Icon } from '@radix-ui/react-icons';
import { Button, Dialog, Flex, IconButton, VisuallyHidden } from '@radix-ui/themes';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import type { DialogSize } from '../../engine/ui/dialog-context.js';
import type { DialogEntry } from './dialog-entry.js';

const WIDTHS: Record<DialogSize, string> = {
  sm: '400px',
  md: '560px',
  lg: '800px',
  xl: '1140px',
  full: 'calc(100vw - 32px)',
};

interface DialogViewProps {
  entry: DialogEntry;
  onConfirm(): void;
  onCancel(): void;
  onClose(value?: unknown): void;
}

/** Renders one dialog of the service; Escape and outside clicks count as cancel / close. */
export function DialogView({ entry, onConfirm, onCancel, onClose }: DialogViewProps) {
  const { t } = useTranslation();
  const { options, isLoading } = entry;
  const size = options.size ?? 'md';
  const close = (value?: unknown) => onClose(value);
  const showClose = entry.type === 'alert' ? entry.options.showCloseButton !== false : entry.type === 'custom';

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (open || isLoading) return;
        if (entry.type === 'confirm') onCancel();
        else close();
      }}
    >
      <Dialog.Content
        maxWidth={WIDTHS[size]}
        width="100%"
        minHeight={size === 'full' ? 'calc(100vh - 32px)' : undefined}
        data-dialog-id={entry.id}
        data-size={size}
        aria-busy={isLoading || undefined}
      >
        <Flex justify="between" align="start" gap="3">
          {options.title ? (
            <Dialog.Title mb="2">{options.title}</Dialog.Title>
          ) : (
            <VisuallyHidden>
              <Dialog.Title>{t('common.dialog')}</Dialog.Title>
            </VisuallyHidden>
          )}
          {showClose && (
            <IconButton variant="ghost" color="gray" aria-label={t('common.close')} disabled={isLoading} onClick={() => close()}>
              <Cross2Icon />
            </IconButton>
          )}
        </Flex>
        {options.img && (
          <Flex justify="center" mb="3">
            <img src={options.img} alt="" style={{ maxWidth: '100%', maxHeight: 160 }} />
          </Flex>
        )}
        {options.description ? (
          <Dialog.Description size="2" mb="3">
            {options.description}
          </Dialog.Description>
        ) : (
          <VisuallyHidden>
            <Dialog.Description>{typeof options.title === 'string' ? options.title : t('common.dialog')}</Dialog.Description>
          </VisuallyHidden>
        )}
        {entry.type === 'custom' && (
          <>
            {typeof entry.options.content === 'function' ? entry.options.content(close) : entry.options.content}
            {entry.options.footer && (
              <Flex gap="3" mt="4" justify="end">
                {typeof entry.options.footer === 'function' ? entry.options.footer(close) : entry.options.footer}
              </Flex>
            )}
          </>
        )}
        {entry.type !== 'custom' && (
          <Flex gap="3" mt="4" justify="end">
            {entry.type === 'confirm' && (
              <Button variant="soft" color="gray" disabled={isLoading} onClick={onCancel}>
                {isLoading ? t('common.loading') : (entry.options.cancelText ?? t('common.no'))}
              </Button>
            )}
            <Button disabled={isLoading} onClick={onConfirm} autoFocus>
              {isLoading ? t('common.loading') : (entry.options.confirmText ?? (entry.type === 'confirm' ? t('common.yes') : t('common.ok')))}
            </Button>
          </Flex>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
