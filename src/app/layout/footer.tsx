import { LockClosedIcon } from '@radix-ui/react-icons';
import { Callout, Flex, Text } from '@radix-ui/themes';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { timeZoneLabel, userTimeZone } from '../../shared/format.js';
import { LegalLinks } from './legal-links.js';

/**
 * The signed-in footer: the anti-fraud notice, the time-zone rule (every time on screen is in the
 * reader's zone, src/shared/format.ts) and the legal links.
 */
export function Footer() {
  const { t, i18n } = useTranslation();
  return (
    <Flex asChild direction="column" gap="3" px={{ initial: '3', sm: '5' }} py="4" className="app-footer">
      <footer>
        <Callout.Root color="amber" variant="surface" size="1" highContrast data-testid="anti-fraud-notice">
          <Callout.Icon>
            <LockClosedIcon />
          </Callout.Icon>
          <Callout.Text>{t('common.antiFraud')}</Callout.Text>
        </Callout.Root>
        <Text size="1" color="gray" data-testid="time-zone-note">
          {t('common.timeZoneNote', { zone: `${timeZoneLabel(i18n.resolvedLanguage ?? 'en')}, ${userTimeZone()}` })}
        </Text>
        <LegalLinks />
      </footer>
    </Flex>
  );
}
