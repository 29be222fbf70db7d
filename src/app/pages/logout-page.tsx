import { CheckCircledIcon, ExitIcon } from '@radix-ui/react-icons';
import { Button, Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { useAuth } from '../auth/auth-context.js';
import type { FromState } from '../auth/guards.js';
import type { EndReason } from '../auth/token-store.js';
import { usePageTitle } from '../use-page-title.js';

/** Navigation state of `/logout`: the authorised-logout flag or why the session ended. */
export interface LogoutState extends FromState {
  authorisedLogout?: boolean;
  reason?: EndReason;
}

/**
 * `/logout`: with tokens and no authorised-logout flag → `/dashboard`; with the flag →
 * clear the session and thank the user; after an ended session (another sign-in, a 401, expiry) →
 * 'You have been logged out' with advice; a visitor with nothing of the sort goes on to `/login`.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? null) as LogoutState | null;
  const { isAuthenticated, endSession } = useAuth();
  const authorised = state?.authorisedLogout === true || params.get('authorised') === 'true';
  const reason = state?.reason;
  const cleared = useRef(false);
  usePageTitle('pages.titles.logout');

  useEffect(() => {
    if (authorised && !cleared.current) {
      cleared.current = true;
      endSession();
    }
  }, [authorised, endSession]);

  if (isAuthenticated && !authorised) return <Navigate to="/dashboard" replace />;
  if (!authorised && !reason) return <Navigate to="/login" replace state={{ from: state?.from } satisfies FromState} />;

  return (
    <Flex align="center" justify="center" minHeight="100vh" p="4" asChild>
      <main>
        <Card size="4" style={{ maxWidth: 520, width: '100%' }}>
          <Flex direction="column" gap="4" align="start">
            {authorised ? (
              <>
                <CheckCircledIcon width={40} height={40} color="var(--green-9)" aria-hidden />
                <Heading as="h1" size="6">
                  {t('pages.logout.successHeading')}
                </Heading>
                <Text color="gray">{t('pages.logout.successThanks')}</Text>
              </>
            ) : (
              <>
                <ExitIcon width={40} height={40} color="var(--amber-10)" aria-hidden />
                <Heading as="h1" size="6">
                  {t('pages.logout.endedHeading')}
                </Heading>
                {reason === 'EXPIRED' && <Text>{t('pages.logout.expired')}</Text>}
                <Callout.Root color="amber" variant="surface" highContrast>
                  <Callout.Text>{t('pages.logout.endedAdvice')}</Callout.Text>
                </Callout.Root>
              </>
            )}
            <Button size="3" asChild>
              <Link to="/login" replace>
                {t('pages.logout.signInAgain')}
              </Link>
            </Button>
          </Flex>
        </Card>
      </main>
    </Flex>
  );
}

export { LogoutPage as Component };
export default LogoutPage;
