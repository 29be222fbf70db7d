import { Button, Callout, Flex, Link as RadixLink, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, describeError } from '../../engine/data/api-error.js';
import { http } from '../../engine/data/http-client.js';
import { fieldMessages } from '../../engine/form/field-messages.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { FormField } from '../../engine/ui/form-field.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import { usePageTitle } from '../use-page-title.js';
import { validateLogin } from './login-page.js';
import { PublicCard } from './public-card.js';

/** `/forgot-password`: asks for a reset link (POST /api/auth/forgot-password, 202 whatever the address). */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const toast = useToasts();
  usePageTitle('pages.titles.forgotPassword');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const key = validateLogin(email, 'x').email;
    setError(key && t(key));
    if (key) return;
    setSending(true);
    try {
      await http.post('/auth/forgot-password', { email: email.trim() }, { handleUnauthorized: false });
      setSent(true);
    } catch (caught) {
      const fields = fieldMessages(caught, t);
      if (fields.email) setError(fields.email);
      else toast.error(caught instanceof ApiError && caught.code === 'RATE_LIMITED' ? t('errors.rateLimited') : describeError(caught, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <PublicCard heading={t('pages.forgot.heading')}>
      {sent ? (
        <Callout.Root color="green" role="status">
          <Callout.Text>{t('pages.forgot.sent')}</Callout.Text>
        </Callout.Root>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Flex direction="column" gap="4">
            <Text size="2" color="gray">
              {t('pages.forgot.intro')}
            </Text>
            <FormField id="forgot-email" label={t('pages.login.email')} error={error}>
              <TextField.Root id="forgot-email" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
            </FormField>
            <Button type="submit" size="3" disabled={sending}>
              {sending ? t('pages.forgot.sending') : t('pages.forgot.submit')}
            </Button>
          </Flex>
        </form>
      )}
      <RadixLink size="2" asChild>
        <Link to="/login">{t('pages.forgot.backToLogin')}</Link>
      </RadixLink>
    </PublicCard>
  );
}

export { ForgotPasswordPage as Component };
export default ForgotPasswordPage;
