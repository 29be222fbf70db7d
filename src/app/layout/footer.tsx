import { LockClosedIcon } from '@radix-ui/react-icons';
import { Callout, Flex } from '@radix-ui/themes';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { LegalLinks } from './legal-links.js';

/** The signed-in footer: the anti-fraud notice and the legal links. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Flex asChild direction="column" gap="3" px={{ initial: '3', sm: '5' }} py="4" className="app-footer">
      <footer>
        <Callout.Root color="amber" variant="surface" size="1" highContrast data-testid="anti-fraud-notice">
          <Callout.Icon>
            <LockClosedIcon />
          </Callout.Icon>
          <Callout.Text>{t('common.antiFraud')}</Callout.Text>
        </Callout.Root>
        <LegalLinks />
      </footer>
    </Flex>
  );
}
