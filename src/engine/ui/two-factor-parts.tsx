import { Box, Button, Callout, Code, Flex, Text, TextField } from '@radix-ui/themes';
import type { TwoFactorEnrolment } from '../../shared/api-contract.js';
import { ApiError } from '../data/api-error.js';
import { fieldMessages } from '../form/field-messages.js';
import { useTranslation } from '../i18n/use-translation.js';

/** The message of a failed two-factor call: the field's translated reason, else the error's code. */
export function twoFactorError(error: unknown, t: (key: string) => string): string {
  const fields = fieldMessages(error, t);
  const first = fields.code ?? fields.password ?? fields.challengeToken ?? Object.values(fields)[0];
  if (first) return first;
  if (error instanceof ApiError && error.code === 'RATE_LIMITED') return t('errors.rateLimited');
  return t('pages.twoFactor.failed');
}

/** A 6-digit (or recovery) code input with its label. */
export function CodeField({ id, value, onChange, error }: { id: string; value: string; onChange(value: string): void; error?: string }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {t('pages.twoFactor.code')}
      </Text>
      <TextField.Root
        id={id}
        name="code"
        size="3"
        inputMode="text"
        autoComplete="one-time-code"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <Text id={`${id}-error`} size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}

/** The QR code to scan and the secret to type, for enrolment. */
export function EnrolmentView({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="2" align="start">
      <Text size="2">{t('pages.twoFactor.scan')}</Text>
      <Box style={{ background: 'white', padding: 8, borderRadius: 8 }}>
        <img src={enrolment.qrCode} alt={t('pages.twoFactor.qrAlt')} width={180} height={180} />
      </Box>
      <Text size="2">
        {t('pages.twoFactor.secret')} <Code data-testid="totp-secret">{enrolment.secret}</Code>
      </Text>
    </Flex>
  );
}

/** The ten recovery codes, shown once, with what to do with them. */
export function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="amber" role="status">
        <Callout.Text>{t('pages.twoFactor.recoveryHint')}</Callout.Text>
      </Callout.Root>
      <Box asChild>
        <ul aria-label={t('pages.twoFactor.recoveryCodes')} className="recovery-codes" data-testid="recovery-codes">
          {codes.map((code) => (
            <li key={code}>
              <Code>{code}</Code>
            </li>
          ))}
        </ul>
      </Box>
      <Button onClick={onDone}>{t('pages.twoFactor.savedCodes')}</Button>
    </Flex>
  );
}
