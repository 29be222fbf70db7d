import { BellIcon } from '@radix-ui/react-icons';
import { Badge, Box, Flex, IconButton, Popover, Spinner, Text, Tooltip } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime, useSession, useTranslation } from '../../../engine/index.js';
import { notificationsOptions } from './queries.js';

/**
 * The header's bell: how many contests were submitted since the admin's previous sign-in, the
 * newest few (each linking to its detail) and a link to the contest list showing them. Nothing is
 * fetched when the admin turned notifications off in the profile.
 */
export function NotificationsPopover(): ReactElement {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const enabled = user?.preferences?.notifications !== false;
  const query = useQuery({ ...notificationsOptions(), enabled });
  const count = enabled ? (query.data?.count ?? 0) : 0;
  const label = count > 0 ? `${t('common.header.notifications')} (${t('common.header.unreadCount', { count })})` : t('common.header.notifications');
  const language = i18n.resolvedLanguage ?? 'en';

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Tooltip content={label}>
        <Popover.Trigger>
          <IconButton variant="ghost" color="gray" aria-label={label} className="notifications-trigger" style={{ position: 'relative' }}>
            <BellIcon width={18} height={18} />
            {count > 0 && (
              <Badge color="red" variant="solid" radius="full" size="1" style={{ position: 'absolute', top: -6, right: -8 }} aria-hidden>
                {count > 99 ? '99+' : count}
              </Badge>
            )}
          </IconButton>
        </Popover.Trigger>
      </Tooltip>
      <Popover.Content width="320px">
        <Text as="p" size="2" weight="bold" mb="2">
          {t('common.header.notifications')}
        </Text>
        {!enabled ? (
          <Text as="p" size="2" color="gray">
            {t('common.header.notificationsOff')}
          </Text>
        ) : query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <Text as="p" size="2" color="red" role="alert">
            {t('common.header.notificationsError')}
          </Text>
        ) : query.data.count === 0 ? (
          <Text as="p" size="2" color="gray">
            {t('common.header.noNotifications')}
          </Text>
        ) : (
          <Flex direction="column" gap="2">
            <Text as="p" size="2">
              {t('common.header.newContests', { count: query.data.count })}
            </Text>
            <Flex asChild direction="column" gap="2" m="0" p="0" style={{ listStyle: 'none' }}>
              <ul>
                {query.data.latest.map((item) => (
                  <Box asChild key={item.id}>
                    <li>
                      <Link to={item.href} onClick={() => setOpen(false)}>
                        <Text size="2" weight="medium">
                          #{item.id} {item.company ?? item.customer ?? ''}
                        </Text>
                      </Link>
                      <Text as="p" size="1" color="gray">
                        {[item.category, formatDateTime(item.created_at, language)].filter(Boolean).join(' · ')}
                      </Text>
                    </li>
                  </Box>
                ))}
              </ul>
            </Flex>
            <Link to={query.data.href} onClick={() => setOpen(false)}>
              <Text size="2">{t('common.header.viewNewContests')}</Text>
            </Link>
          </Flex>
        )}
      </Popover.Content>
    </Popover.Root>
  );
}

export default NotificationsPopover;
