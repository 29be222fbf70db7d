import { Button, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { describeError } from '../../engine/data/api-error.js';
import { fieldMessages } from '../../engine/form/field-messages.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { FormField } from '../../engine/ui/form-field.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import { authApi } from '../auth/auth-api.js';
import { useAuth } from '../auth/auth-context.js';

/** The password policy's bounds (shared with the server). */
export { POLICY_MAX as PASSWORD_MAX, POLICY_MIN as PASSWORD_MIN } from '../../shared/password-policy.js';

import { POLICY_MAX as PASSWORD_MAX, POLICY_MIN as PASSWORD_MIN, passwordPolicyProblem } from '../../shared/password-policy.js';

/**
 * The policy's verdict on a new password, as a translated message (the estimator and its
 * dictionaries load on first use, in their own chunk); undefined when it may be used.
 */
export async function policyMessage(
  password: string,
  email: string,
  t: (key: string, values?: Record<string, unknown>) => string,
): Promise<string | undefined> {
  try {
    const problem = await passwordPolicyProblem(password, email);
    return problem ? t(problem.messageKey, problem.params) : undefined;
  } catch {
    return undefined; // The server checks again; a chunk that failed to load must not block the form.
  }
}

type Fields = 'currentPassword' | 'newPassword' | 'confirmPassword';

/** Client-side checks for the password change; values are message keys with their parameters. */
export function validatePasswordChange(current: string, next: string, confirm: string): Partial<Record<Fields, [string, Record<string, unknown>?]>> {
  const errors: Partial<Record<Fields, [string, Record<string, unknown>?]>> = {};
  if (!current) errors.currentPassword = ['validation.currentPassword.required'];
  if (!next) errors.newPassword = ['validation.password.required'];
  else if (next.length < PASSWORD_MIN) errors.newPassword = ['validation.adminPassword.min', { limit: PASSWORD_MIN }];
  else if (next.length > PASSWORD_MAX) errors.newPassword = ['validation.adminPassword.max', { limit: PASSWORD_MAX }];
  if (!confirm) errors.confirmPassword = ['validation.passwordConfirmation.required'];
  else if (confirm !== next) errors.confirmPassword = ['validation.passwordConfirmation.mismatch'];
  return errors;
}

/** Changing the password (POST /api/auth/change-password); the admin's other sessions end. */
export function PasswordForm() {
  const { t } = useTranslation();
  const toast = useToasts();
  const { user } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordChange(current, next, confirm);
    setErrors(Object.fromEntries(Object.entries(found).map(([key, [messageKey, values]]) => [key, t(messageKey, values)])));
    if (Object.keys(found).length > 0) return;
    const weak = await policyMessage(next, user?.email ?? '', t);
    if (weak) return setErrors({ newPassword: weak });
    setSaving(true);
    try {
      await authApi.changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setErrors({});
      toast.success(t('toasts.passwordChanged'));
    } catch (error) {
      const messages = fieldMessages(error, t);
      setErrors(messages);
      if (Object.keys(messages).length === 0) {
        toast.error(describeError(error, t, t('toasts.passwordChangeFailed')));
      }
    } finally {
      setSaving(false);
    }
  };

  const input = (id: Fields, value: string, set: (value: string) => void, autoComplete: string) => (
    <TextField.Root id={`password-${id}`} name={id} type="password" autoComplete={autoComplete} value={value} onChange={(e) => set(e.target.value)} />
  );

  return (
    <Card size="3" asChild>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="password-heading">
        <Flex direction="column" gap="4">
          <Heading as="h2" size="4" id="password-heading">
            {t('pages.profile.passwordHeading')}
          </Heading>
          <Text size="2" color="gray">
            {t('pages.profile.passwordHint')}
          </Text>
          <FormField id="password-currentPassword" label={t('pages.profile.currentPassword')} error={errors.currentPassword}>
            {input('currentPassword', current, setCurrent, 'current-password')}
          </FormField>
          <FormField id="password-newPassword" label={t('pages.profile.newPassword')} error={errors.newPassword}>
            {input('newPassword', next, setNext, 'new-password')}
          </FormField>
          <FormField id="password-confirmPassword" label={t('pages.profile.confirmPassword')} error={errors.confirmPassword}>
            {input('confirmPassword', confirm, setConfirm, 'new-password')}
          </FormField>
          <Flex justify="end">
            <Button type="submit" disabled={saving}>
              {saving ? t('common.saving') : t('pages.profile.changePassword')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
