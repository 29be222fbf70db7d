import { Avatar, Button, Card, Flex, Heading, Select, Switch, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { describeError } from '../../engine/data/api-error.js';
import { fieldMessages } from '../../engine/form/field-messages.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { FormField } from '../../engine/ui/form-field.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import type { AuthUser } from '../../shared/api-contract.js';
import { authApi } from '../auth/auth-api.js';
import { useAuth } from '../auth/auth-context.js';
import { changeLanguage, SUPPORTED_LANGUAGES } from '../i18n.js';
import { LANGUAGE_NAME_KEYS } from '../layout/language-switcher.js';

type Errors = Partial<Record<'name' | 'avatarUrl', string>>;

/** Client-side checks mirroring the server's (`validation.name.*`, http(s) avatar only). */
export function validateProfile(name: string, avatarUrl: string): Errors {
  const errors: Errors = {};
  const trimmed = name.trim();
  if (!trimmed) errors.name = 'validation.name.required';
  else if (trimmed.length < 2) errors.name = 'validation.name.min';
  else if (trimmed.length > 100) errors.name = 'validation.name.max';
  if (avatarUrl.trim() && !/^https?:\/\/\S+$/i.test(avatarUrl.trim())) errors.avatarUrl = 'validation.avatarUrl.invalid';
  return errors;
}

/** Name, avatar and preferences (theme, language, notifications), saved with PUT /api/auth/me. */
export function ProfileForm({ profile, onSaved }: { profile: AuthUser; onSaved: (user: AuthUser) => void }) {
  const { t } = useTranslation();
  const toast = useToasts();
  const { setUser } = useAuth();
  const [name, setName] = useState(profile.name);
  const [avatarUrl, setAvatarUrl] = useState(profile.avatarUrl ?? '');
  const [theme, setTheme] = useState(profile.preferences.theme);
  const [language, setLanguage] = useState(profile.preferences.language);
  const [notifications, setNotifications] = useState(profile.preferences.notifications);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProfile(name, avatarUrl);
    setErrors(Object.fromEntries(Object.entries(found).map(([key, value]) => [key, t(value)])));
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const updated = await authApi.updateMe({
        name: name.trim(),
        avatarUrl: avatarUrl.trim() || null,
        preferences: { theme, language, notifications },
      });
      setUser(updated);
      onSaved(updated);
      await changeLanguage(updated.preferences.language);
      toast.success(t('toasts.profileUpdated'));
    } catch (error) {
      const messages = fieldMessages(error, t);
      setErrors(messages);
      if (Object.keys(messages).length === 0) {
        toast.error(describeError(error, t, t('toasts.profileUpdateFailed')));
      }
    } finally {
      setSaving(false);
    }
  };

  const safeAvatar = /^https?:\/\//i.test(avatarUrl.trim()) ? avatarUrl.trim() : undefined;
  return (
    <Card size="3" asChild>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="profile-heading">
        <Flex direction="column" gap="4">
          <Heading as="h2" size="4" id="profile-heading">
            {t('pages.profile.detailsHeading')}
          </Heading>
          <Flex align="center" gap="3">
            <Avatar size="5" radius="full" src={safeAvatar} fallback={(name || '?').slice(0, 1).toUpperCase()} />
            <Flex direction="column">
              <Text weight="bold">{profile.email}</Text>
              <Text size="1" color="gray">
                {t('pages.profile.role', { role: profile.role })}
              </Text>
            </Flex>
          </Flex>
          <FormField id="profile-name" label={t('pages.profile.name')} error={errors.name}>
            <TextField.Root id="profile-name" name="name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          </FormField>
          <FormField id="profile-avatar" label={t('pages.profile.avatarUrl')} hint={t('pages.profile.avatarHint')} error={errors.avatarUrl}>
            <TextField.Root
              id="profile-avatar"
              name="avatarUrl"
              type="url"
              value={avatarUrl}
              onChange={(e) => setAvatarUrl(e.target.value)}
              placeholder="https://"
            />
          </FormField>
          <Flex gap="4" wrap="wrap">
            <FormField id="profile-theme" label={t('pages.profile.theme')}>
              <Select.Root value={theme} onValueChange={(value) => setTheme(value as 'light' | 'dark')}>
                <Select.Trigger id="profile-theme" />
                <Select.Content>
                  <Select.Item value="light">{t('pages.profile.themeLight')}</Select.Item>
                  <Select.Item value="dark">{t('pages.profile.themeDark')}</Select.Item>
                </Select.Content>
              </Select.Root>
            </FormField>
            <FormField id="profile-language" label={t('pages.profile.language')}>
              <Select.Root value={language} onValueChange={(value) => setLanguage(value as AuthUser['preferences']['language'])}>
                <Select.Trigger id="profile-language" />
                <Select.Content>
                  {SUPPORTED_LANGUAGES.map((code) => (
                    <Select.Item key={code} value={code}>
                      {t(LANGUAGE_NAME_KEYS[code])}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </FormField>
          </Flex>
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Switch checked={notifications} onCheckedChange={setNotifications} name="notifications" />
              {t('pages.profile.notifications')}
            </Flex>
          </Text>
          <Flex justify="end">
            <Button type="submit" disabled={saving}>
              {saving ? t('common.saving') : t('common.save')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
