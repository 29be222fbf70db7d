import { Button } from '@radix-ui/themes/components/button';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { authApi } from '../auth/auth-api.js';
import { markLanguageChosen, useAuth } from '../auth/auth-context.js';
import { changeLanguage, nextLanguage, toLanguage } from '../i18n.js';
import { GlobeLineIcon } from '../icons.js';

/** The i18n key of each language's own name. */
export const LANGUAGE_NAME_KEYS = {
  en: 'common.language.names.en',
  id: 'common.language.names.id',
  ms: 'common.language.names.ms',
} as const;

/**
 * The language choice: each press moves to the next of en, id, ms. The choice is remembered by
 * the detector (localStorage and a cookie) and, when signed in, saved in the profile.
 */
export function LanguageSwitcher({ size = '2' }: { size?: '1' | '2' | '3' }) {
  const { t, i18n } = useTranslation();
  const { isAuthenticated, setUser } = useAuth();
  const current = toLanguage(i18n.resolvedLanguage);
  const next = nextLanguage(current);

  const onClick = async () => {
    await changeLanguage(next);
    markLanguageChosen(next);
    if (isAuthenticated) {
      authApi.updateMe({ preferences: { language: next } }).then(setUser, () => undefined);
    }
  };

  return (
    <Button
      variant="soft"
      color="gray"
      size={size}
      onClick={() => void onClick()}
      // Starts with the visible code (WCAG 2.5.3, label in name), then says what a press does.
      aria-label={t('common.language.switch', {
        code: current.toUpperCase(),
        current: t(LANGUAGE_NAME_KEYS[current]),
        next: t(LANGUAGE_NAME_KEYS[next]),
      })}
      data-testid="language-switcher"
    >
      <GlobeLineIcon />
      {current.toUpperCase()}
    </Button>
  );
}
