import { Theme } from '@radix-ui/themes';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../src/app/i18n.js';
import { MediaView } from '../../src/features/media/client.js';

function renderView(value: unknown) {
  return render(
    <I18nextProvider i18n={i18n}>
      <Theme>
        <MediaView value={value} size="detail" alt="Key visual" />
      </Theme>
    </I18nextProvider>,
  );
}

// The media face's `MediaView` loads the view with its first use (the face is in the sign-in page's load).
describe("the media face's MediaView", () => {
  it('shows an external URL as a link once its chunk is in', async () => {
    renderView('https://example.com/kv.png');
    const link = await screen.findByTestId('media-external-link');
    expect(link.getAttribute('href')).toBe('https://example.com/kv.png');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows other text as text, and nothing for no value', async () => {
    const { unmount } = renderView('not a link');
    expect(await screen.findByText('not a link')).toBeTruthy();
    unmount();
    // The view is in by now (the text showed): no value shows nothing.
    const empty = renderView(null);
    expect(empty.container.textContent).toBe('');
  });
});
