import { Flex } from '@radix-ui/themes/components/flex';
import { Link as RadixLink } from '@radix-ui/themes/components/link';
import { Text } from '@radix-ui/themes/components/text';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { usePageNavigation } from '../page-navigation.js';
import { LEGAL_PAGES } from './legal-pages.js';

/** The footer's links (privacy, security, charter, terms, copyright) and the copyright line. */
export function LegalLinks() {
  const { t } = useTranslation();
  const { Link } = usePageNavigation();
  return (
    <Flex direction="column" align="center" gap="2" asChild>
      <nav aria-label={t('nav.footer')}>
        <Flex wrap="wrap" justify="center" gap={{ initial: '2', sm: '4' }} asChild>
          <ul className="plain-list">
            {LEGAL_PAGES.map((page) => (
              <li key={page.path}>
                <RadixLink size="2" color="gray" asChild>
                  <Link to={page.path}>{t(page.titleKey)}</Link>
                </RadixLink>
              </li>
            ))}
          </ul>
        </Flex>
        <Text size="1" color="gray" align="center">
          {t('common.copyright', { year: new Date().getFullYear() })}
        </Text>
      </nav>
    </Flex>
  );
}
