import { act, render, screen, waitFor } from '@testing-library/react';
import i18next, { type BackendModule } from 'i18next';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { useTranslation } from '../../src/engine/i18n/use-translation.js';

// The console's useTranslation: one answer shared by every component of an i18next instance until
// its language changes; suspends until the namespace is in, and renders its users again in a new language.

const RESOURCES: Record<string, { greeting: string }> = { en: { greeting: 'Hello' }, id: { greeting: 'Halo' } };

/** An instance whose languages arrive when `release()` is called, as the console's chunks do. */
function slowInstance() {
  const waiting: Array<() => void> = [];
  let open = false;
  const backend: BackendModule = {
    type: 'backend',
    init() {},
    read(language, _namespace, callback) {
      const answer = () => callback(null, RESOURCES[language] ?? {});
      if (open) answer();
      else waiting.push(answer);
    },
  };
  const i18n = i18next.createInstance();
  void i18n.use(backend).init({ lng: 'en', fallbackLng: 'en', ns: ['common'], defaultNS: 'common', interpolation: { escapeValue: false } });
  return {
    i18n,
    release: () => {
      open = true;
      for (const done of waiting.splice(0)) done();
    },
  };
}

const seen: unknown[] = [];
function Greeting({ name }: { name: string }) {
  const { t } = useTranslation();
  seen.push(t);
  return <p data-testid={name}>{t('greeting')}</p>;
}

describe('useTranslation', () => {
  it('suspends until the namespace is loaded, shares one t, and renders again with a new one in a new language', async () => {
    const { i18n, release } = slowInstance();
    seen.length = 0;
    render(
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<p>waiting</p>}>
          <Greeting name="a" />
          <Greeting name="b" />
        </Suspense>
      </I18nextProvider>,
    );
    expect(screen.getByText('waiting')).toBeTruthy();
    await act(async () => release());
    expect((await screen.findByTestId('a')).textContent).toBe('Hello');
    expect(screen.getByTestId('b').textContent).toBe('Hello');
    expect(new Set(seen).size).toBe(1);
    const english = seen[0];
    await act(async () => {
      const changed = i18n.changeLanguage('id');
      release();
      await changed;
    });
    await waitFor(() => expect(screen.getByTestId('a').textContent).toBe('Halo'));
    expect(screen.getByTestId('b').textContent).toBe('Halo');
    expect(seen.at(-1)).not.toBe(english);
    expect(seen.at(-1)).toBe(seen.at(-2));
  });

  it('keeps the text of a key asked alone, until the resources or the default variables change; a call with options is resolved each time', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false, defaultVariables: { product: 'Awards CMS' } },
      resources: { en: { common: { greeting: 'Hello', brand: '{{product}} console', hi: 'Hi {{name}}' } } },
    });
    let t!: ReturnType<typeof useTranslation>['t'];
    function Capture() {
      t = useTranslation().t;
      return null;
    }
    render(
      <I18nextProvider i18n={i18n}>
        <Capture />
      </I18nextProvider>,
    );
    const translator = (i18n as unknown as { translator: { translate: (...args: unknown[]) => unknown } }).translator;
    let resolved = 0;
    const translate = translator.translate.bind(translator);
    translator.translate = (...args: unknown[]) => {
      resolved += 1;
      return translate(...args);
    };
    expect([t('greeting'), t('greeting'), t('greeting')]).toEqual(['Hello', 'Hello', 'Hello']);
    expect(resolved).toBe(1);
    expect([t('hi', { name: 'Ana' }), t('hi', { name: 'Budi' })]).toEqual(['Hi Ana', 'Hi Budi']);
    expect(resolved).toBe(3);
    i18n.addResourceBundle('en', 'common', { greeting: 'Good day' }, true, true);
    expect(t('greeting')).toBe('Good day');
    expect(t('brand')).toBe('Awards CMS console');
    i18n.options.interpolation = { ...i18n.options.interpolation, defaultVariables: { product: 'Jakarta Awards' } };
    expect(t('brand')).toBe('Jakarta Awards console');
  });
});
