import { Button, Code, Flex } from '@radix-ui/themes';
// `withTheme` by its own module, as the engine's form imports it (see entity-form.tsx).
import type { FormProps, IChangeEvent } from '@rjsf/core';
import withTheme from '@rjsf/core/lib/withTheme.js';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { type ComponentType, useMemo, useState } from 'react';
import type { Translate } from '../../engine/form/form-schema.js';
import { createFormValidator } from '../../engine/form/schema-validator.js';
import { createErrorTransformer } from '../../engine/form/validation.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { templates, widgets } from '../../engine/rjsf-radix/index.js';
import { CURRENCY_CODES } from '../../engine/widgets/currencies.js';

const ThemedForm = withTheme({ widgets, templates }) as ComponentType<FormProps>;
const validator = createFormValidator();
/** The end date is not before the start date: the calendars enforce it on both fields. */
const DATE_RULES = [{ field: 'end_date', operator: 'gte', other: 'start_date' }] as const;

/**
 * A form built by the console's RJSF theme from a schema and uiSchema, using every widget the
 * widgets engineer registers by name (searchable-select, reference-select, calendar-date, amount,
 * currency and the amount-currency template), so the gallery shows them as descriptors use them.
 */
export function SandboxForm(): React.ReactElement {
  // `t` is new on each language change, so the texts below follow the language.
  const { t } = useTranslation();
  const [data, setData] = useState<Record<string, unknown>>({});
  const [submitted, setSubmitted] = useState<Record<string, unknown> | null>(null);
  const [validated, setValidated] = useState(false);

  const { schema, uiSchema } = useMemo(() => {
    const kinds = ['film', 'design', 'digital', 'print', 'radio'];
    const schema: RJSFSchema = {
      type: 'object',
      required: ['kind', 'start_date', 'end_date'],
      properties: {
        kind: { type: 'string', title: t('pages.sandbox.form.kind'), enum: kinds },
        category_id: { type: 'integer', title: t('pages.sandbox.form.category') },
        start_date: { type: 'string', format: 'date', title: t('pages.sandbox.form.startDate') },
        end_date: { type: 'string', format: 'date', title: t('pages.sandbox.form.endDate') },
        prize: {
          type: 'object',
          title: t('pages.sandbox.form.prize'),
          required: ['currency'],
          properties: {
            currency: { type: 'string', enum: [...CURRENCY_CODES] },
            amount: { type: 'number', minimum: 0, maximum: 1_000_000_000_000 },
          },
        },
      },
    };
    const uiSchema: UiSchema = {
      'ui:submitButtonOptions': { norender: true },
      kind: {
        'ui:widget': 'searchable-select',
        'ui:enumNames': kinds.map((key) => t(`pages.sandbox.sample.${key}.label`)),
      },
      category_id: { 'ui:widget': 'reference-select', 'ui:options': { entity: 'category', descriptionField: 'slug' } },
      start_date: { 'ui:widget': 'calendar-date' },
      end_date: { 'ui:widget': 'calendar-date' },
      prize: {
        'ui:ObjectFieldTemplate': 'amount-currency',
        currency: { 'ui:widget': 'currency', 'ui:options': { label: false }, 'ui:title': 'common.currency.label' },
        amount: { 'ui:widget': 'amount', 'ui:options': { label: false }, 'ui:title': 'common.amount.label' },
      },
    };
    return { schema, uiSchema };
  }, [t]);
  const transformErrors = useMemo(() => createErrorTransformer(undefined, t as unknown as Translate), [t]);

  return (
    <Flex direction="column" gap="3">
      <ThemedForm
        schema={schema}
        uiSchema={uiSchema}
        formData={data}
        formContext={{ formData: data, comparisons: DATE_RULES }}
        validator={validator}
        idPrefix="sandbox"
        liveValidate={validated ? 'onChange' : false}
        showErrorList={false}
        transformErrors={transformErrors}
        noHtml5Validate
        onChange={(event: IChangeEvent) => setData((event.formData ?? {}) as Record<string, unknown>)}
        customValidate={(formData, errors) => {
          const { start_date: start, end_date: end } = (formData ?? {}) as Record<string, unknown>;
          if (typeof start === 'string' && typeof end === 'string' && end < start) {
            errors.end_date?.addError(t('validation.dateRange.endBeforeStart'));
            errors.start_date?.addError(t('validation.dateRange.startAfterEnd'));
          }
          return errors;
        }}
        onError={() => setValidated(true)}
        onSubmit={(event: IChangeEvent) => setSubmitted((event.formData ?? {}) as Record<string, unknown>)}
      >
        <Flex justify="end" mt="4">
          <Button type="submit">{t('pages.sandbox.form.submit')}</Button>
        </Flex>
      </ThemedForm>
      <Code role="status" aria-label={t('pages.sandbox.form.result')} variant="ghost" style={{ whiteSpace: 'pre-wrap' }}>
        {submitted ? JSON.stringify(submitted, null, 2) : ''}
      </Code>
    </Flex>
  );
}
