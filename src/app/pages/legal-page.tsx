import { ArrowLeftIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Container, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { useAuth } from '../auth/auth-context.js';
import { LanguageSwitcher } from '../layout/language-switcher.js';
import { LegalLinks } from '../layout/legal-links.js';
import { LEGAL_PAGES } from '../layout/legal-pages.js';
import { usePageTitle } from '../use-page-title.js';
import { NotFoundPage } from './not-found-page.js';

/** A footer page, readable signed in or not, with a way back to the console or to sign-in. */
export function LegalPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { isAuthenticated } = useAuth();
  const page = LEGAL_PAGES.find((candidate) => candidate.path === pathname);
  usePageTitle(page?.titleKey ?? 'pages.titles.notFound');
  if (!page) return <NotFoundPage />;
  return (
    <Box minHeight="100vh" py={{ initial: '4', sm: '6' }} px="4">
      <Container size="3">
        <Flex direction="column" gap="5">
          <Flex justify="between" align="center" gap="3" wrap="wrap" asChild>
            <header>
              <Button variant="ghost" asChild>
                <Link to={isAuthenticated ? '/dashboard' : '/login'}>
                  <ArrowLeftIcon aria-hidden />
                  {isAuthenticated ? t('pages.placeholder.backToDashboard') : t('pages.legal.backToLogin')}
                </Link>
              </Button>
              <LanguageSwitcher />
            </header>
          </Flex>
          <Card size="4" asChild>
            <main>
              <Heading as="h1" size="7" mb="4">
                {t(page.titleKey)}
              </Heading>
              <Flex direction="column" gap="3">
                {page.paragraphKeys.map((key) => (
                  <Text as="p" key={key} size="3">
                    {t(key, { year: new Date().getFullYear() })}
                  </Text>
                ))}
              </Flex>
            </main>
          </Card>
          <LegalLinks />
        </Flex>
      </Container>
    </Box>
  );
}

export { LegalPage as Component };
export default LegalPage;
