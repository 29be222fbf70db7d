// Deep imports: the sign-in page's first load stays free of the Radix Themes barrel (see build.mjs).
import { Box } from '@radix-ui/themes/components/box';
import { Button } from '@radix-ui/themes/components/button';
import * as Callout from '@radix-ui/themes/components/callout';
import { Card } from '@radix-ui/themes/components/card';
import { Flex } from '@radix-ui/themes/components/flex';
import { Heading } from '@radix-ui/themes/components/heading';
import { Text } from '@radix-ui/themes/components/text';
import * as TextField from '@radix-ui/themes/components/text-field';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ApiError, describeError } from '../../engine/data/api-error.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import type { TwoFactorChallenge } from '../../shared/api-contract.js';
import { homePathFor } from '../../shared/roles.js';
import { useAuth } from '../auth/auth-context.js';
import type { FromState } from '../auth/guards.js';
import { loadAllTranslations } from '../i18n.js';
import { CheckCircleLineIcon, WarningLineIcon } from '../icons.js';
import { LanguageSwitcher } from '../layout/language-switcher.js';
import { LegalLinks } from '../layout/legal-links.js';
import { toast } from '../lazy-toast.js';
import { usePageNavigation } from '../page-navigation.js';
import { APP_TITLE_KEY, usePageTitle } from '../use-page-title.js';

/** What other pages hand the login page through navigation state. */
export interface LoginState extends FromState {
  /** Set by sign-out: clear what is left of the session and say so. */
  authorisedLogout?: boolean;
  /** Whether the server agreed to the sign-out (else the local-only toast). */
  serverLogout?: boolean;
  /** An i18n key to show above the form (e.g. an invalid token callback), with its values. */
  messageKey?: string;
  messageValues?: Record<string, string>;
  /** An i18n key of good news to show above the form (e.g. a password was reset). */
  noticeKey?: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The two-factor step: its own chunk, loaded only by accounts that have it on. */
const TwoFactorSignIn = lazy(() => import('./two-factor-sign-in.js'));

/** The sign-in form's rules: e-mail trimmed, required and a simple pattern; password required. */
export function validateLogin(email: string, password: string): { email?: string; password?: string } {
  const errors: { email?: string; password?: string } = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = 'validation.email.required';
  else if (!EMAIL_PATTERN.test(trimmed)) errors.email = 'validation.email.invalid';
  if (!password) errors.password = 'validation.password.required';
  return errors;
}

/** Where sign-in leads: back to the page first asked for, when the role may see it, else home. */
function destination(state: LoginState | null, role: string | undefined): string {
  const from = state?.from;
  const home = homePathFor(role);
  if (!from?.pathname || ['/login', '/logout', '/403', '/'].includes(from.pathname)) return home;
  // A role with a home of its own (not the console's) would only meet the 403 page elsewhere.
  if (home !== homePathFor(undefined) && !from.pathname.startsWith(home)) return home;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** The sign-in screen: e-mail, password, Login, the background image and the welcome. */
export function LoginPage() {
  const { t } = useTranslation();
  // The router's in the app; its own when the page was opened by itself (sign-in-start.tsx).
  const { state: navigationState, goOn, Redirect, Link } = usePageNavigation();
  const state = (navigationState ?? null) as LoginState | null;
  const { isAuthenticated, isLoading, signIn, endSession, user } = useAuth();
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const loggedOutHandled = useRef(false);
  usePageTitle('pages.titles.login');

  useEffect(() => {
    if (!state?.authorisedLogout || loggedOutHandled.current) return;
    loggedOutHandled.current = true;
    endSession();
    if (state.serverLogout === true) toast.success(t('toasts.logoutSuccess'), { toastId: 'logout' });
    if (state.serverLogout === false) toast.error(t('toasts.logoutFailedLocal'), { toastId: 'logout' });
  }, [state, endSession, t]);

  if (isAuthenticated && !state?.authorisedLogout) return <Redirect to={destination(state, user?.role)} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(email, password);
    setErrors(found);
    if (found.email || found.password) return;
    // The next screen needs the whole translation namespace: fetch it alongside the sign-in.
    void loadAllTranslations();
    try {
      const signedIn = await signIn(email.trim(), password);
      if ('challengeToken' in signedIn) return setChallenge(signedIn);
      goOn(destination(state, signedIn.role), t('toasts.loginSuccess'));
    } catch (error) {
      toast.error(loginErrorMessage(error, t));
    }
  };

  return (
    <Flex minHeight="100vh" asChild>
      <main>
        <Box className="login-art" display={{ initial: 'none', md: 'block' }} flexGrow="1" role="presentation" />
        <Flex direction="column" justify="between" align="center" p={{ initial: '4', sm: '6' }} gap="5" width={{ initial: '100%', md: '480px' }} flexShrink="0">
          <Flex justify="between" align="center" width="100%">
            <Text weight="bold" size="4">
              {t(APP_TITLE_KEY)}
            </Text>
            <LanguageSwitcher />
          </Flex>
          <Card size="4" style={{ width: '100%', maxWidth: 420 }}>
            {challenge ? (
              <Suspense fallback={<Text color="gray">{t('common.loading')}</Text>}>
                <TwoFactorSignIn
                  challenge={challenge}
                  onCancel={() => setChallenge(null)}
                  onSignedIn={(signedIn) => goOn(destination(state, signedIn.role), t('toasts.loginSuccess'))}
                />
              </Suspense>
            ) : (
              <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="login-heading">
                <Flex direction="column" gap="4">
                  <Heading as="h1" size="6" id="login-heading">
                    {t('pages.login.heading')}
                  </Heading>
                  <Text color="gray" size="2">
                    {t('pages.login.welcome')}
                  </Text>
                  {(state?.authorisedLogout || state?.noticeKey) && (
                    <Callout.Root color="green" role="status">
                      <Callout.Icon>
                        <CheckCircleLineIcon />
                      </Callout.Icon>
                      <Callout.Text>{state.noticeKey ? t(state.noticeKey) : t('pages.logout.successHeading')}</Callout.Text>
                    </Callout.Root>
                  )}
                  {state?.messageKey && (
                    <Callout.Root color="red" role="alert">
                      <Callout.Icon>
                        <WarningLineIcon />
                      </Callout.Icon>
                      <Callout.Text>{t(state.messageKey, state.messageValues)}</Callout.Text>
                    </Callout.Root>
                  )}
                  <Field
                    id="login-email"
                    name="email"
                    type="email"
                    label={t('pages.login.email')}
                    autoComplete="username"
                    value={email}
                    onChange={setEmail}
                    error={errors.email && t(errors.email)}
                    placeholder={t('pages.login.emailPlaceholder')}
                  />
                  <Field
                    id="login-password"
                    name="password"
                    type="password"
                    label={t('pages.login.password')}
                    autoComplete="current-password"
                    value={password}
                    onChange={setPassword}
                    error={errors.password && t(errors.password)}
                  />
                  <Button type="submit" size="3" disabled={isLoading}>
                    {isLoading ? t('pages.login.signingIn') : t('pages.login.submit')}
                  </Button>
                  <Text size="2" align="center">
                    <Link to="/forgot-password" className="text-link">
                      {t('pages.login.forgot')}
                    </Link>
                  </Text>
                </Flex>
              </form>
            )}
          </Card>
          <LegalLinks />
        </Flex>
      </main>
    </Flex>
  );
}

function loginErrorMessage(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (error.code === 'UNAUTHENTICATED') return t('errors.invalidCredentials');
    if (error.code === 'RATE_LIMITED') return t('errors.rateLimited');
    if (error.code === 'NETWORK') return t('errors.network');
  }
  return describeError(error, t, t('toasts.loginFailed'));
}

interface FieldProps {
  id: string;
  name: string;
  type: string;
  label: string;
  autoComplete: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  placeholder?: string;
}

function Field({ id, name, type, label, autoComplete, value, onChange, error, placeholder }: FieldProps) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root
        id={id}
        name={name}
        type={type as 'email' | 'password'}
        size="3"
        autoComplete={autoComplete}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        color={error ? 'red' : undefined}
      />
      {error && (
        <Text id={`${id}-error`} size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}

export { LoginPage as Component };
export default LoginPage;
