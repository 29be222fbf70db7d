import { Button, Callout, Flex, Link as RadixLink, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { describeError } from '../../engine/data/api-error.js';
import { http } from '../../engine/data/http-client.js';
import { fieldMessages } from '../../engine/form/field-messages.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { FormField } from '../../engine/ui/form-field.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import { usePageTitle } from '../use-page-title.js';
import type { LoginState } from './login-page.js';
import { policyMessage, validatePasswordChange } from './password-form.js';
import { PublicCard } from './public-card.js';

/**
 * `/reset-password?token=`: the e-mailed link's page; sets a new password (POST
 * /api/auth/reset-password). `/set-password?token=` is the same for an invitation's first password.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const toast = useToasts();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const invited = useLocation().pathname === '/set-password';
  const token = params.get('token') ?? '';
  usePageTitle(invited ? 'pages.titles.setPassword' : 'pages.titles.resetPassword');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordChange('-', password, confirm);
    const messages = Object.fromEntries(Object.entries(found).map(([key, [messageKey, values]]) => [key, t(messageKey, values)]));
    setErrors(messages);
    if (Object.keys(messages).length > 0) return;
    const weak = await policyMessage(password, '', t);
    if (weak) return setErrors({ newPassword: weak });
    setSaving(true);
    try {
      await http.post('/auth/reset-password', { token, password }, { handleUnauthorized: false });
      void navigate('/login', { replace: true, state: { noticeKey: invited ? 'pages.setPassword.done' : 'pages.reset.done' } satisfies LoginState });
    } catch (caught) {
      const fields = fieldMessages(caught, t);
      if (fields.password) setErrors({ newPassword: fields.password });
      else toast.error(describeError(caught, t, t('toasts.resetFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <PublicCard heading={t(invited ? 'pages.setPassword.heading' : 'pages.reset.heading')}>
      {!token ? (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{t('pages.reset.missingToken')}</Callout.Text>
        </Callout.Root>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Flex direction="column" gap="4">
            <FormField id="reset-password" label={t('pages.reset.newPassword')} error={errors.newPassword}>
              <TextField.Root
                id="reset-password"
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </FormField>
            <FormField id="reset-confirm" label={t('pages.reset.confirmPassword')} error={errors.confirmPassword}>
              <TextField.Root
                id="reset-confirm"
                name="confirmPassword"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
            </FormField>
            <Button type="submit" size="3" disabled={saving}>
              {saving ? t('pages.reset.saving') : t('pages.reset.submit')}
            </Button>
          </Flex>
        </form>
      )}
      <RadixLink size="2" asChild>
        <Link to={token ? '/login' : '/forgot-password'}>{token ? t('pages.forgot.backToLogin') : t('pages.login.forgot')}</Link>
      </RadixLink>
    </PublicCard>
  );
}

export { ResetPasswordPage as Component };
export default ResetPasswordPage;
