import { Button, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { describeError } from '../../engine/data/api-error.js';
import { fieldMessages } from '../../engine/form/field-messages.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { FormField } from '../../engine/ui/form-field.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import { PRODUCT_TITLE_MAX } from '../../shared/product.js';
import { applyProductName, fetchProductName, saveProductName } from '../product-name.js';

const PRODUCT_QUERY_KEY = ['settings', 'product'] as const;

/**
 * The programme's own name (admins, on the profile page): what page titles, the brand, the footer
 * and the mails call the product instead of 'Awards CMS'. Blank goes back to the default.
 */
export function ProductNameCard() {
  const { t, i18n } = useTranslation();
  const toast = useToasts();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: PRODUCT_QUERY_KEY, queryFn: fetchProductName });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (current.data) setValue(current.data.custom ? current.data.name : '');
  }, [current.data]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (value.trim().length > PRODUCT_TITLE_MAX) return setError(t('validation.productName.max', { limit: PRODUCT_TITLE_MAX }));
    setSaving(true);
    try {
      const saved = await saveProductName(value);
      queryClient.setQueryData(PRODUCT_QUERY_KEY, saved);
      applyProductName(i18n, saved.name);
      setError(undefined);
      toast.success(t('pages.profile.productName.saved', { name: saved.name }));
    } catch (failure) {
      const messages = fieldMessages(failure, t);
      setError(messages.name);
      if (!messages.name) toast.error(describeError(failure, t, t('pages.profile.productName.failed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card size="3" asChild>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="product-name-heading" data-testid="product-name-card">
        <Flex direction="column" gap="4">
          <Heading as="h2" size="4" id="product-name-heading">
            {t('pages.profile.productName.heading')}
          </Heading>
          <Text size="2" color="gray">
            {t('pages.profile.productName.hint', { name: current.data?.default ?? '' })}
          </Text>
          <FormField id="product-name" label={t('pages.profile.productName.label')} error={error}>
            <TextField.Root
              id="product-name"
              name="name"
              maxLength={PRODUCT_TITLE_MAX}
              value={value}
              placeholder={current.data?.default}
              disabled={current.isPending}
              onChange={(e) => setValue(e.target.value)}
            />
          </FormField>
          <Flex justify="end">
            <Button type="submit" disabled={saving || current.isPending}>
              {saving ? t('common.saving') : t('pages.profile.productName.save')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
