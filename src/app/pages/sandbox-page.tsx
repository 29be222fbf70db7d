import { Box, Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { AmountInput } from '../../engine/widgets/amount-input.js';
import { Breadcrumb } from '../../engine/widgets/breadcrumb.js';
import { CalendarDatePicker } from '../../engine/widgets/calendar.js';
import type { CurrencyCode } from '../../engine/widgets/currencies.js';
import { CurrencySelector } from '../../engine/widgets/currency-selector.js';
import { RowActions } from '../../engine/widgets/row-actions.js';
import { type LoadOptions, SearchableSelect, type SelectOption } from '../../engine/widgets/searchable-select.js';
import { usePageTitle } from '../use-page-title.js';
import { SandboxForm } from './sandbox-form.js';

type State = 'empty' | 'filled' | 'invalid' | 'disabled' | 'loading';

/** One labelled demo: a visible label tied to the widget, and an error line in the invalid state. */
function Demo({ state, title, children }: { state: State; title?: string; children: (ids: { id: string; errorId?: string }) => React.ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = state === 'invalid' ? `${id}-error` : undefined;
  return (
    <Flex direction="column" gap="1" data-state={state}>
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {title ?? t(`pages.sandbox.states.${state}`)}
      </Text>
      {children({ id, errorId })}
      {errorId && (
        <Text id={errorId} size="1" color="red">
          {t('pages.sandbox.invalidMessage')}
        </Text>
      )}
    </Flex>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card size="2" asChild>
      <section aria-label={title}>
        <Heading as="h2" size="4" mb="3">
          {title}
        </Heading>
        <Grid columns={{ initial: '1', sm: '2', md: '3' }} gap="4">
          {children}
        </Grid>
      </section>
    </Card>
  );
}

function useSampleOptions(): SelectOption[] {
  const { t } = useTranslation();
  return ['film', 'design', 'digital', 'print', 'radio'].map((key) => ({
    value: key,
    label: t(`pages.sandbox.sample.${key}.label`),
    description: t(`pages.sandbox.sample.${key}.description`),
  }));
}

/** A stand-in for a list endpoint of 100,000 rows, searched and paged as the API does. */
const sampleRemote: LoadOptions = (search, signal, page) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const perPage = 20;
      const matches: SelectOption[] = [];
      for (let n = 1; n <= 100_000 && matches.length < page * perPage + 1; n += 1) {
        const label = `Entry ${n}`;
        if (!search || label.toLowerCase().includes(search.toLowerCase())) matches.push({ value: n, label });
      }
      resolve({ options: matches.slice((page - 1) * perPage, page * perPage), hasMore: matches.length > page * perPage });
    }, 300);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Each example keeps its own value, so every one that is not disabled or loading accepts input
 * (the empty and invalid ones included): the gallery shows the widget working, not only its look.
 */
function SelectExample({ state, options }: { state: State; options: SelectOption[] }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | number | undefined>(
    state === 'filled' ? 'design' : state === 'disabled' || state === 'loading' ? 'film' : undefined,
  );
  return (
    <Demo state={state}>
      {({ id, errorId }) => (
        <SearchableSelect
          id={id}
          label={t(`pages.sandbox.states.${state}`)}
          options={options}
          value={value}
          onChange={(v) => setValue(v)}
          clearable={state !== 'disabled' && state !== 'loading'}
          invalid={state === 'invalid'}
          disabled={state === 'disabled'}
          loading={state === 'loading'}
          aria-describedby={errorId}
        />
      )}
    </Demo>
  );
}

function CurrencyExample({ state }: { state: Exclude<State, 'loading'> }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<CurrencyCode | undefined>(state === 'filled' ? 'MYR' : state === 'disabled' ? 'EUR' : undefined);
  return (
    <Demo state={state}>
      {({ id, errorId }) => (
        <CurrencySelector
          id={id}
          label={t(`pages.sandbox.states.${state}`)}
          value={value}
          onChange={setValue}
          invalid={state === 'invalid'}
          disabled={state === 'disabled'}
          aria-describedby={errorId}
        />
      )}
    </Demo>
  );
}

function CalendarExample({ state }: { state: Exclude<State, 'loading'> }) {
  const [value, setValue] = useState<string | undefined>(state === 'filled' ? '2025-01-05' : state === 'disabled' ? '2025-03-14' : undefined);
  return (
    <Demo state={state}>
      {({ id, errorId }) => (
        <CalendarDatePicker
          id={id}
          value={value}
          onChange={setValue}
          min={state === 'invalid' ? '2025-01-01' : undefined}
          invalid={state === 'invalid'}
          disabled={state === 'disabled'}
          aria-describedby={errorId}
        />
      )}
    </Demo>
  );
}

function AmountExample({ state }: { state: Exclude<State, 'loading'> }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState<number | undefined>(state === 'filled' ? 25000 : state === 'disabled' ? 1500 : undefined);
  const [currency, setCurrency] = useState<CurrencyCode>(state === 'filled' ? 'MYR' : 'USD');
  return (
    <Demo state={state}>
      {({ id, errorId }) => (
        <AmountInput
          id={id}
          label={t(`pages.sandbox.states.${state}`)}
          min={0}
          amount={amount}
          onAmountChange={setAmount}
          currency={currency}
          onCurrencyChange={setCurrency}
          invalid={state === 'invalid'}
          disabled={state === 'disabled'}
          aria-describedby={errorId}
        />
      )}
    </Demo>
  );
}

/**
 * The `/sandbox` screen: a gallery of every reusable widget in its states
 * (empty, filled, invalid, disabled, loading), in the chosen language, and a form built by the
 * RJSF theme using every widget (the accessibility check runs on it).
 */
export function SandboxPage(): React.ReactElement {
  const { t } = useTranslation();
  usePageTitle('pages.titles.sandbox');
  const options = useSampleOptions();
  const [remoteChoice, setRemoteChoice] = useState<string | number | undefined>();
  const noop = () => undefined;
  const selectStates: State[] = ['empty', 'filled', 'invalid', 'disabled', 'loading'];
  const fieldStates = ['empty', 'filled', 'invalid', 'disabled'] as const;

  return (
    <Flex direction="column" gap="5">
      <Box>
        <Heading as="h1" size="6" mb="1">
          {t('pages.sandbox.title')}
        </Heading>
        <Text as="p" color="gray">
          {t('pages.sandbox.intro')}
        </Text>
      </Box>

      <Section title={t('pages.sandbox.sections.searchableSelect')}>
        {selectStates.map((state) => (
          <SelectExample key={state} state={state} options={options} />
        ))}
        <Demo state="filled" title={t('pages.sandbox.remote')}>
          {({ id }) => (
            <SearchableSelect
              id={id}
              label={t('pages.sandbox.remote')}
              value={remoteChoice}
              loadOptions={sampleRemote}
              onChange={(v) => setRemoteChoice(v)}
              clearable
            />
          )}
        </Demo>
      </Section>

      <Section title={t('pages.sandbox.sections.currency')}>
        {fieldStates.map((state) => (
          <CurrencyExample key={state} state={state} />
        ))}
      </Section>

      <Section title={t('pages.sandbox.sections.calendar')}>
        {fieldStates.map((state) => (
          <CalendarExample key={state} state={state} />
        ))}
      </Section>

      <Section title={t('pages.sandbox.sections.amount')}>
        {fieldStates.map((state) => (
          <AmountExample key={state} state={state} />
        ))}
      </Section>

      <Section title={t('pages.sandbox.sections.navigation')}>
        <Flex direction="column" gap="2">
          <Text size="2" weight="medium">
            {t('pages.sandbox.breadcrumb')}
          </Text>
          <Breadcrumb
            items={[
              { label: t('pages.sandbox.crumbs.dashboard'), url: '/dashboard' },
              { label: t('pages.sandbox.crumbs.categories'), url: '/manage-category' },
              { label: t('pages.sandbox.sample.film.label') },
            ]}
          />
        </Flex>
        <Flex direction="column" gap="2">
          <Text size="2" weight="medium">
            {t('pages.sandbox.rowActions')}
          </Text>
          <RowActions recordLabel={t('pages.sandbox.sample.film.label')} view={{ to: '/sandbox' }} edit={{ to: '/sandbox' }} onDelete={noop} />
        </Flex>
        <Flex direction="column" gap="2">
          <Text size="2" weight="medium">
            {t('pages.sandbox.states.loading')}
          </Text>
          <RowActions recordLabel={t('pages.sandbox.sample.design.label')} edit={{ to: '/sandbox' }} onDelete={noop} deleting />
        </Flex>
      </Section>

      <Card size="2" asChild>
        <section aria-label={t('pages.sandbox.sections.form')}>
          <Heading as="h2" size="4" mb="3">
            {t('pages.sandbox.sections.form')}
          </Heading>
          <SandboxForm />
        </section>
      </Card>
    </Flex>
  );
}

/** React Router's lazy-route entry point. */
export const Component = SandboxPage;
export default SandboxPage;
