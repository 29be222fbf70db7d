import { useTranslation } from '../i18n/use-translation.js';

/**
 * A form field's label, translated when it is an i18n key: the form engine translates top-level
 * field titles itself, but nested ones (an amount inside a prize object) arrive as the key.
 */
export function useWidgetLabel(label: string | undefined): string | undefined {
  const { t } = useTranslation();
  return label ? t(label, { defaultValue: label }) : undefined;
}
