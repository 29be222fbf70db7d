import { Flex, Text } from '@radix-ui/themes';
import { ariaDescribedByIds, type ObjectFieldTemplateProps, type WidgetProps } from '@rjsf/utils';
import { createContext, type ReactElement, useContext, useEffect } from 'react';
import { useTranslation } from '../../i18n/use-translation.js';
import { AmountInput } from '../../widgets/amount-input.js';
import { DEFAULT_CURRENCY, isCurrencyCode } from '../../widgets/currencies.js';
import { CurrencySelector } from '../../widgets/currency-selector.js';
import { useWidgetLabel } from '../../widgets/use-widget-label.js';

/** What the `amount-currency` template tells the two widgets it pairs: the object's current values. */
const PairContext = createContext<{ amount: unknown; currency: unknown } | null>(null);

/**
 * RJSF widget `amount`: a number typed in the amount input (digits and the currency's decimals
 * only). `ui:options.currency` fixes the code shown beside it; `ui:options.decimals` overrides the
 * decimals. The schema's `minimum` decides whether a minus sign may be typed.
 */
export function AmountWidget(props: WidgetProps): ReactElement {
  const { id, value, options, schema, disabled, readonly, rawErrors, required, placeholder, onChange, onBlur } = props;
  const { t } = useTranslation();
  const label = useWidgetLabel(props.label) ?? t('common.amount.label');
  const pair = useContext(PairContext);
  const currency = isCurrencyCode(options.currency) ? options.currency : isCurrencyCode(pair?.currency) ? pair.currency : undefined;
  return (
    <AmountInput
      id={id}
      label={label}
      amount={typeof value === 'number' ? value : undefined}
      onAmountChange={(next) => onChange(next ?? options.emptyValue)}
      currency={currency}
      showCode={pair === null}
      decimals={typeof options.decimals === 'number' ? options.decimals : undefined}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      disabled={disabled}
      readOnly={readonly}
      required={required}
      invalid={(rawErrors?.length ?? 0) > 0}
      placeholder={placeholder || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/**
 * RJSF widget `currency`: a currency code chosen in the currency selector, showing USD while none
 * is chosen. Paired with an amount, it stores USD as soon as an amount is entered, so an optional
 * prize stays absent until it is given and never lacks its currency once it is.
 */
export function CurrencyWidget(props: WidgetProps): ReactElement {
  const { id, value, disabled, readonly, rawErrors, onChange, onBlur } = props;
  const { t } = useTranslation();
  const label = useWidgetLabel(props.label) ?? t('common.currency.label');
  const pair = useContext(PairContext);
  const needsDefault = pair !== null && pair.amount !== undefined && pair.amount !== null && !isCurrencyCode(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the change of `needsDefault` matters; `onChange` is a new function on every render
  useEffect(() => {
    if (needsDefault) onChange(DEFAULT_CURRENCY);
  }, [needsDefault]);
  return (
    <CurrencySelector
      id={id}
      label={label}
      value={isCurrencyCode(value) ? value : DEFAULT_CURRENCY}
      onChange={(code) => onChange(code)}
      disabled={disabled || readonly}
      invalid={(rawErrors?.length ?? 0) > 0}
      aria-describedby={ariaDescribedByIds(id)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/**
 * RJSF object template `amount-currency`: an `{ amount, currency }` object laid out as the spec's
 * amount input, the currency selector beside the number, under the object's label, as one
 * labelled group. The descriptor pairs them with
 * `"ui:ObjectFieldTemplate": "amount-currency"` and widgets `currency` and `amount` on the two
 * properties (their own labels hidden with `"ui:options": { "label": false }`).
 */
export function AmountCurrencyTemplate(props: ObjectFieldTemplateProps): ReactElement {
  const titleId = `${props.fieldPathId.$id}__title`;
  const title = useWidgetLabel(props.title);
  const byName = (name: string) => props.properties.find((p) => p.name === name);
  const currency = byName('currency');
  const amount = byName('amount');
  const others = props.properties.filter((p) => p !== currency && p !== amount);
  const data = (props.formData ?? {}) as Record<string, unknown>;
  return (
    <PairContext.Provider value={{ amount: data.amount, currency: data.currency }}>
      <Flex direction="column" gap="1" role="group" aria-labelledby={title ? titleId : undefined}>
        {title && (
          <Text id={titleId} size="2" weight="medium">
            {title}
            {props.required && (
              <Text color="red" aria-hidden>
                {' *'}
              </Text>
            )}
          </Text>
        )}
        <Flex gap="2" align="start">
          {currency && !currency.hidden && <div>{currency.content}</div>}
          {amount && <div style={{ flexGrow: 1 }}>{amount.content}</div>}
        </Flex>
        {others.map((p) => p.content)}
      </Flex>
    </PairContext.Provider>
  );
}
