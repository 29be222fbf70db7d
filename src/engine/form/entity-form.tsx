import { Button, Flex, Spinner } from '@radix-ui/themes';
// The form and `withTheme` by their own modules: @rjsf/core's index also exports its test helper,
// which imports a validator the console does not ship (ajv compiles with `new Function`, which the
// Content-Security-Policy forbids).
import type { FormProps, IChangeEvent } from '@rjsf/core';
import type Form from '@rjsf/core/lib/components/Form.js';
import withTheme from '@rjsf/core/lib/withTheme.js';
import { type CustomValidator, getDefaultFormState, type RJSFSchema } from '@rjsf/utils';
import { type ComponentType, type ReactElement, type Ref, useEffect, useMemo, useRef, useState } from 'react';
import type { FieldError } from '../../shared/api-contract.js';
import { checkComparisons } from '../../shared/descriptor/comparisons.js';
import type { ClientEntity, JsonSchema } from '../../shared/descriptor/types.js';
import { entityText } from '../data/entity-labels.js';
import { useTranslation } from '../i18n/use-translation.js';
import { registeredTemplates, registeredWidgets, templates, widgets } from '../rjsf-radix/index.js';
import { buildFormSchema, buildFormUiSchema, type FormMode, normalizeFormData, type Translate, toSubmission } from './form-schema.js';
import { createFormValidator } from './schema-validator.js';
import { createErrorTransformer, toExtraErrors } from './validation.js';

/** RJSF's `Form` with the Radix Themes theme (its ref is the `Form` instance). */
export const ThemedForm = withTheme({ widgets, templates }) as ComponentType<FormProps & { ref?: Ref<Form> }>;

const validator = createFormValidator();

/** Props of {@link EntityForm}. */
export interface EntityFormProps {
  entity: ClientEntity;
  mode: FormMode;
  /** Starting values (the record on edit; extra defaults on create). */
  initialData: Record<string, unknown>;
  /** The last save's field errors from the server (422), shown under their fields. */
  serverErrors?: readonly FieldError[];
  /** True while saving: the submit button says 'Creating...' / 'Updating...'. */
  saving: boolean;
  /** Called with the request body (only the form's fields, trimmed) once the form is valid. */
  onSubmit(body: Record<string, unknown>): void;
  onCancel(): void;
  /** Told whether the values differ from the starting ones. */
  onDirtyChange?(dirty: boolean): void;
  /** Told each change as the request body it would make (a draft saved as it is typed). */
  onChange?(body: Record<string, unknown>): void;
  /** Messages of server errors that fit no field (the screen toasts them). */
  onUnplacedErrors?(messages: string[]): void;
}

function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalizeFormData(a)) === JSON.stringify(normalizeFormData(b));
}

/**
 * An entity's create or edit form on RJSF: the descriptor's fields, widgets and defaults; client
 * validation with the server's messages, live only after the first submit; server field errors
 * under their fields until the field changes; Cancel and the submit button.
 */
export function EntityForm(props: EntityFormProps): ReactElement {
  const { entity, mode, initialData, serverErrors, saving, onSubmit, onCancel, onDirtyChange, onChange, onUnplacedErrors } = props;
  const { t, i18n } = useTranslation();
  const translate = t as unknown as Translate;
  // The schema (and so the defaults and the values) never depends on the language; the labels do
  // (`t` is new on each language change, so the memos taking `translate` follow it).
  const form = useMemo(() => buildFormSchema(entity, mode), [entity, mode]);
  const uiSchema = useMemo(() => buildFormUiSchema(entity, mode, form, translate), [entity, mode, form, translate]);
  const transformErrors = useMemo(() => createErrorTransformer(entity.messages, translate), [entity.messages, translate]);
  // The descriptor's rules between fields ('Passwords don't match'), checked as the server does.
  const customValidate = useMemo<CustomValidator>(
    () => (formData, errors) => {
      const values = (normalizeFormData(formData, form.schema as JsonSchema) ?? {}) as Record<string, unknown>;
      for (const error of checkComparisons(entity.comparisons ?? [], values)) {
        (errors as Record<string, { addError?(message: string): void }>)[error.path]?.addError?.(translate(error.messageKey, error.params));
      }
      return errors;
    },
    [entity.comparisons, form.schema, translate],
  );
  const baseline = useMemo(() => getDefaultFormState(validator, form.schema as RJSFSchema, initialData) as Record<string, unknown>, [form.schema, initialData]);
  const [data, setData] = useState<Record<string, unknown>>(baseline);
  const [submitted, setSubmitted] = useState(false);
  // Server errors apply to the values they were given for; a field's error goes once that field changes.
  const [errorBase, setErrorBase] = useState({ errors: serverErrors, data });
  if (errorBase.errors !== serverErrors) setErrorBase({ errors: serverErrors, data });
  const formRef = useRef<Form>(null);
  useEffect(() => setData(baseline), [baseline]);
  useEffect(() => onDirtyChange?.(!sameData(data, baseline)), [data, baseline, onDirtyChange]);

  const liveServerErrors = useMemo(() => {
    const field = (path: string) => path.split('.')[0] ?? '';
    return (errorBase.errors ?? []).filter((error) => sameData(data[field(error.path)], errorBase.data[field(error.path)]));
  }, [errorBase, data]);
  // Widgets see the current values and the rules between fields (the end-date calendar greys the
  // days before the chosen start date, from the same `comparisons` the validation checks). A widget
  // that edits a list of objects (RJSF hands it only the list's own errors) also sees whether
  // the form was submitted and the server's errors inside its field (`criteria.1.key`), to place them.
  const formContext = useMemo(
    () => ({ formData: data, comparisons: entity.comparisons ?? [], submitted, serverErrors: liveServerErrors }),
    [data, entity.comparisons, submitted, liveServerErrors],
  );
  const { extraErrors, unplaced } = useMemo(() => toExtraErrors(liveServerErrors, form.fields, translate), [liveServerErrors, form.fields, translate]);
  const unplacedText = unplaced.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new set of server errors is announced; re-running when the text or the callback changes (a new function each render) would toast the same errors again
  useEffect(() => {
    if (unplacedText) onUnplacedErrors?.(unplacedText.split('\n'));
  }, [serverErrors]);

  // After a language switch the shown client errors are re-made in the new language.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language switch is the trigger; `submitted` is read at that moment (submitting must not validate again here)
  useEffect(() => {
    if (submitted) formRef.current?.validateForm();
  }, [i18n.language]);

  const submitLabel = saving
    ? t(mode === 'create' ? 'common.creating' : 'common.updating')
    : entityText(entity, mode === 'create' ? 'submitCreate' : 'submitUpdate', t);

  return (
    <ThemedForm
      ref={formRef}
      schema={form.schema}
      uiSchema={uiSchema}
      formData={data}
      formContext={formContext}
      widgets={registeredWidgets()}
      templates={registeredTemplates()}
      validator={validator}
      idPrefix={`${entity.name}-${mode}`}
      onChange={(event: IChangeEvent) => {
        const values = (event.formData ?? {}) as Record<string, unknown>;
        setData(values);
        onChange?.(toSubmission(values, form, mode));
      }}
      onError={() => setSubmitted(true)}
      onSubmit={(event: IChangeEvent) => {
        setSubmitted(true);
        const values = (event.formData ?? {}) as Record<string, unknown>;
        onSubmit(toSubmission(values, form, mode));
      }}
      transformErrors={transformErrors}
      customValidate={customValidate}
      extraErrors={extraErrors}
      liveValidate={submitted ? 'onChange' : false}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      disabled={saving}
    >
      <Flex gap="3" justify="end" mt="5" wrap="wrap">
        <Button type="button" variant="soft" color="gray" onClick={onCancel} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
          {saving && <Spinner size="1" />}
          {submitLabel}
        </Button>
      </Flex>
    </ThemedForm>
  );
}
