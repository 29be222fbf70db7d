import { ChatBubbleIcon, ExitIcon, QuestionMarkCircledIcon } from '@radix-ui/react-icons';
import { Avatar, Box, Flex, IconButton, Text, Tooltip } from '@radix-ui/themes';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { registeredHeaderItems } from '../../engine/registry/index.js';
import { useDialogs } from '../../engine/ui/dialog-context.js';
import { formatDateTime } from '../../engine/ui/format-date.js';
import { useAuth } from '../auth/auth-context.js';
import type { LoginState } from '../pages/login-page.js';
import { RegisteredParts } from '../registered-parts.js';
import { LanguageSwitcher } from './language-switcher.js';
import { SessionTimer } from './session-timer.js';

/**
 * The header: welcome with name, e-mail and last login; the session time left; the items the
 * features register for the signed-in role (`headerItems`: notifications); helpdesk, FAQ, language
 * and logout.
 */
export function Header() {
  const { t, i18n } = useTranslation();
  const { user, signOutOnServer } = useAuth();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const lastLogin = formatDateTime(user?.lastLoginTimestamp, i18n.resolvedLanguage ?? 'en');

  const logout = async () => {
    let serverLogout = false;
    const confirmed = await dialogs.confirm({
      id: 'logout',
      title: t('pages.logout.confirmTitle'),
      description: t('pages.logout.confirm'),
      size: 'sm',
      onConfirm: async () => {
        serverLogout = await signOutOnServer();
      },
    });
    if (!confirmed) return;
    void navigate('/login', { replace: true, state: { authorisedLogout: true, serverLogout } satisfies LoginState });
  };

  return (
    <Flex asChild align="center" justify="between" gap="3" px={{ initial: '3', sm: '5' }} py="3" wrap="wrap" className="app-header">
      <header>
        <Flex align="center" gap="3" minWidth="0">
          <Avatar size="2" radius="full" src={user?.avatarUrl ?? undefined} fallback={(user?.name ?? '?').slice(0, 1).toUpperCase()} />
          <Box minWidth="0">
            <Text as="p" size="2" weight="bold" truncate>
              {t('common.header.welcome', { name: user?.name ?? '' })}
            </Text>
            <Text as="p" size="1" color="gray" truncate>
              {user?.email}
              {lastLogin && <span className="header-last-login"> · {t('common.header.lastLogin', { date: lastLogin })}</span>}
            </Text>
          </Box>
        </Flex>
        <Flex align="center" gap={{ initial: '2', sm: '3' }} wrap="wrap">
          <SessionTimer />
          <RegisteredParts parts={registeredHeaderItems()} role={user?.role} />
          <Tooltip content={t('nav.helpdesk')}>
            <IconButton variant="ghost" color="gray" asChild>
              <Link to="/helpdesk" aria-label={t('nav.helpdesk')}>
                <ChatBubbleIcon width={18} height={18} />
              </Link>
            </IconButton>
          </Tooltip>
          <Tooltip content={t('nav.faq')}>
            <IconButton variant="ghost" color="gray" asChild>
              <Link to="/faq" aria-label={t('nav.faq')}>
                <QuestionMarkCircledIcon width={18} height={18} />
              </Link>
            </IconButton>
          </Tooltip>
          <LanguageSwitcher />
          <Tooltip content={t('common.header.logout')}>
            <IconButton variant="soft" color="red" onClick={() => void logout()} aria-label={t('common.header.logout')} data-testid="logout-button">
              <ExitIcon width={18} height={18} />
            </IconButton>
          </Tooltip>
        </Flex>
      </header>
    </Flex>
  );
}
