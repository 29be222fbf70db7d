import { Theme } from '@radix-ui/themes';
import { type RenderResult, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n, type Language } from '../../src/app/i18n.js';

/**
 * Renders a widget as the app would (Radix Theme, router, the app's i18n in `language`) and
 * returns Testing Library's result plus a user-event session. Used by the widget component tests.
 */
export async function renderWidget(
  ui: React.ReactElement,
  { language = 'en' }: { language?: Language } = {},
): Promise<RenderResult & { user: ReturnType<typeof userEvent.setup> }> {
  await i18n.changeLanguage(language);
  const user = userEvent.setup();
  const result = render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <Theme>{ui}</Theme>
      </MemoryRouter>
    </I18nextProvider>,
  );
  return { ...result, user };
}
