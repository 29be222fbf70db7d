import { Badge, Button, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CodeField, EnrolmentView, RecoveryCodesView, twoFactorError, useToasts, useTranslation } from '../../../engine/index.js';
import type { TwoFactorEnrolment } from '../../../shared/api-contract.js';
import { accountsApi, invalidateTwoFactor, twoFactorStatusOptions } from './queries.js';

/** The profile's two-factor card: turn it on (QR code, one code, recovery codes shown once) or off (password and code). */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const toast = useToasts();
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorStatusOptions());
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const refresh = () => void invalidateTwoFactor(queryClient);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(twoFactorError(caught, t));
    } finally {
      setBusy(false);
    }
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setCodes(await accountsApi.twoFactorEnable(code.trim()));
      setEnrolment(undefined);
      setCode('');
      toast.success(t('pages.twoFactor.enabled'));
    });
  };
  const disable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await accountsApi.twoFactorDisable(password, code.trim());
      setPassword('');
      setCode('');
      toast.success(t('pages.twoFactor.disabled'));
      refresh();
    });
  };

  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Flex align="center" justify="between" gap="2">
          <Heading as="h2" size="4">
            {t('pages.twoFactor.heading')}
          </Heading>
          {status.data && (
            <Badge color={status.data.enabled ? 'green' : 'gray'}>{status.data.enabled ? t('pages.twoFactor.on') : t('pages.twoFactor.off')}</Badge>
          )}
        </Flex>
        {codes ? (
          <RecoveryCodesView
            codes={codes}
            onDone={() => {
              setCodes(undefined);
              refresh();
            }}
          />
        ) : status.data?.enabled ? (
          <form onSubmit={disable} noValidate>
            <Flex direction="column" gap="3">
              <Text size="2" color="gray">
                {t('pages.twoFactor.recoveryLeft', { count: status.data.recoveryCodesLeft })}
              </Text>
              <Flex direction="column" gap="1">
                <Text as="label" htmlFor="two-factor-password" size="2" weight="medium">
                  {t('pages.profile.currentPassword')}
                </Text>
                <TextField.Root
                  id="two-factor-password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </Flex>
              <CodeField id="two-factor-disable-code" value={code} onChange={setCode} error={error} />
              <Button type="submit" color="red" variant="soft" disabled={busy}>
                {t('pages.twoFactor.turnOff')}
              </Button>
            </Flex>
          </form>
        ) : enrolment ? (
          <form onSubmit={confirm} noValidate>
            <Flex direction="column" gap="3">
              <EnrolmentView enrolment={enrolment} />
              <CodeField id="two-factor-enrol-code" value={code} onChange={setCode} error={error} />
              <Button type="submit" disabled={busy}>
                {t('pages.twoFactor.verify')}
              </Button>
            </Flex>
          </form>
        ) : (
          <Flex direction="column" gap="3" align="start">
            <Text size="2" color="gray">
              {t('pages.twoFactor.intro')}
            </Text>
            {error && (
              <Text size="1" color="red" role="alert">
                {error}
              </Text>
            )}
            <Button disabled={busy || !status.data} onClick={() => void run(async () => setEnrolment(await accountsApi.twoFactorSetup()))}>
              {t('pages.twoFactor.turnOn')}
            </Button>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}

export default TwoFactorCard;
