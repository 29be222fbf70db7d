import { BellIcon } from '@radix-ui/react-icons';
import { Badge, Box, Button, Flex, IconButton, Popover, Separator, Spinner, Text, Tooltip } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime, useSession, useTranslation } from '../../../engine/index.js';
import type { NewContestsData, NotificationEvent, NotificationsData, NotificationsReadBody } from '../index.js';
import { invalidateNotifications, markNotificationsRead, newContestsOptions, notificationsOptions } from './queries.js';

/**
 * The header's bell, for every signed-in user: their own events (the mails written to them: subject
 * and time, unread first), each marked read when opened or all at once, and for an admin also how
 * many contests were submitted since the previous sign-in, the newest few and a link to the list
 * (a second query, `GET /api/notifications/new-contests`, made only for an admin: the route is
 * admins-only). The badge counts the unread events (and an admin's new contests). Nothing is fetched
 * when the user turned notifications off in the profile.
 */
export function NotificationsPopover(): ReactElement {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const enabled = user?.preferences?.notifications !== false;
  const isAdmin = user?.role === 'admin';
  const query = useQuery({ ...notificationsOptions(), enabled });
  const contests = useQuery({ ...newContestsOptions(), enabled: enabled && isAdmin });
  const read = useMutation({
    mutationFn: (body: NotificationsReadBody) => markNotificationsRead(body),
    onSuccess: () => invalidateNotifications(client),
  });
  const count = enabled ? (query.data?.unread ?? 0) + (isAdmin ? (contests.data?.count ?? 0) : 0) : 0;
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
      <Popover.Content width="340px" aria-label={t('common.header.notifications')}>
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
        ) : (
          <Flex direction="column" gap="3">
            <OwnEvents data={query.data} language={language} busy={read.isPending} onRead={(body) => read.mutate(body)} failed={read.isError} />
            {isAdmin && (
              <>
                <Separator size="4" />
                {contests.isPending ? (
                  <Spinner />
                ) : contests.isError ? (
                  <Text as="p" size="2" color="red" role="alert">
                    {t('common.header.notificationsError')}
                  </Text>
                ) : (
                  <NewContests data={contests.data} language={language} onNavigate={() => setOpen(false)} />
                )}
              </>
            )}
          </Flex>
        )}
      </Popover.Content>
    </Popover.Root>
  );
}

/** The user's own events: each with its subject and time, unread ones first and marked; opening one marks it read. */
function OwnEvents(props: {
  data: NotificationsData;
  language: string;
  busy: boolean;
  failed: boolean;
  onRead: (body: NotificationsReadBody) => void;
}): ReactElement {
  const { t } = useTranslation();
  const { data, language, busy, failed, onRead } = props;
  return (
    <Flex direction="column" gap="2" className="notifications-own">
      <Flex justify="between" align="center" gap="2">
        <Text as="p" size="2" weight="medium">
          {t('common.notifications.yours')}
        </Text>
        {data.unread > 0 && (
          <Button size="1" variant="ghost" disabled={busy} onClick={() => onRead({ all: true })}>
            {t('common.notifications.markAllRead')}
          </Button>
        )}
      </Flex>
      {failed && (
        <Text as="p" size="1" color="red" role="alert">
          {t('common.notifications.markFailed')}
        </Text>
      )}
      {data.events.length === 0 ? (
        <Text as="p" size="2" color="gray">
          {t('common.notifications.noneYet')}
        </Text>
      ) : (
        <Flex asChild direction="column" gap="2" m="0" p="0" style={{ listStyle: 'none', maxHeight: 320, overflowY: 'auto' }}>
          <ul>
            {data.events.map((event) => (
              <EventItem key={event.id} event={event} language={language} busy={busy} onRead={onRead} />
            ))}
          </ul>
        </Flex>
      )}
    </Flex>
  );
}

function EventItem(props: { event: NotificationEvent; language: string; busy: boolean; onRead: (body: NotificationsReadBody) => void }): ReactElement {
  const { t } = useTranslation();
  const { event, language, busy, onRead } = props;
  const unread = event.read_at === null;
  return (
    <Box asChild>
      <li data-unread={unread ? 'true' : 'false'} className="notification-event">
        <Flex justify="between" align="start" gap="2">
          <Box>
            <Text as="p" size="2" weight={unread ? 'bold' : 'regular'}>
              {event.subject}
            </Text>
            <Text as="p" size="1" color="gray">
              {formatDateTime(event.created_at, language)}
            </Text>
          </Box>
          {unread && (
            <Button
              size="1"
              variant="soft"
              disabled={busy}
              onClick={() => onRead({ ids: [event.id] })}
              aria-label={`${t('common.notifications.markRead')}: ${event.subject}`}
            >
              {t('common.notifications.markRead')}
            </Button>
          )}
        </Flex>
      </li>
    </Box>
  );
}

/** An admin's part: the contests submitted since the previous sign-in, the newest few, and the list showing them. */
function NewContests(props: { data: NewContestsData; language: string; onNavigate: () => void }): ReactElement {
  const { t } = useTranslation();
  const { data, language, onNavigate } = props;
  if (data.count === 0) {
    return (
      <Text as="p" size="2" color="gray">
        {t('common.header.noNotifications')}
      </Text>
    );
  }
  return (
    <Flex direction="column" gap="2">
      <Text as="p" size="2">
        {t('common.header.newContests', { count: data.count })}
      </Text>
      <Flex asChild direction="column" gap="2" m="0" p="0" style={{ listStyle: 'none' }}>
        <ul>
          {data.latest.map((item) => (
            <Box asChild key={item.id}>
              <li>
                <Link to={item.href} onClick={onNavigate}>
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
      <Link to={data.href} onClick={onNavigate}>
        <Text size="2">{t('common.header.viewNewContests')}</Text>
      </Link>
    </Flex>
  );
}

export default NotificationsPopover;
