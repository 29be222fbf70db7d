import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { CodeField, EnrolmentView, RecoveryCodesView, twoFactorError } from '../../engine/ui/two-factor-parts.js';
import type { AuthUser, LoginResponse, TwoFactorChallenge, TwoFactorEnrolment } from '../../shared/api-contract.js';
import { authApi } from '../auth/auth-api.js';
import { useAuth } from '../auth/auth-context.js';

/**
 * The sign-in's second step: a code from the authenticator app (or a recovery code), or, when an
 * admin must turn two-factor on first (REQUIRE_2FA_FOR_ADMINS), the enrolment and its recovery codes.
 */
export function TwoFactorSignIn({ challenge, onSignedIn, onCancel }: { challenge: TwoFactorChallenge; onSignedIn(user: AuthUser): void; onCancel(): void }) {
  const { t } = useTranslation();
  const { completeSignIn } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [opened, setOpened] = useState<{ answer: LoginResponse; codes: string[] }>();
  const enrolling = challenge.twoFactor === 'enrol';

  useEffect(() => {
    if (!enrolling) return;
    authApi.loginEnrolSetup(challenge.challengeToken).then(setEnrolment, (caught) => setError(twoFactorError(caught, t)));
  }, [enrolling, challenge.challengeToken, t]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t('validation.twoFactor.codeRequired'));
    setBusy(true);
    try {
      if (enrolling) {
        const answer = await authApi.loginEnrolConfirm(challenge.challengeToken, code.trim());
        setOpened({ answer, codes: answer.recoveryCodes });
      } else {
        onSignedIn(await completeSignIn(await authApi.loginTwoFactor(challenge.challengeToken, code.trim())));
      }
    } catch (caught) {
      setError(twoFactorError(caught, t));
    } finally {
      setBusy(false);
    }
  };

  if (opened) {
    return <RecoveryCodesView codes={opened.codes} onDone={() => void completeSignIn(opened.answer).then(onSignedIn)} />;
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="two-factor-heading">
      <Flex direction="column" gap="4">
        <Heading as="h1" size="6" id="two-factor-heading">
          {t('pages.twoFactor.heading')}
        </Heading>
        <Text color="gray" size="2">
          {enrolling ? t('pages.twoFactor.enrolRequired') : t('pages.twoFactor.enterCode')}
        </Text>
        {enrolling && enrolment && <EnrolmentView enrolment={enrolment} />}
        <CodeField id="two-factor-code" value={code} onChange={setCode} error={error} />
        <Button type="submit" size="3" disabled={busy}>
          {t('pages.twoFactor.verify')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('pages.twoFactor.back')}
        </Button>
      </Flex>
    </form>
  );
}

export default TwoFactorSignIn;
