import { ClockIcon } from '@radix-ui/react-icons';
import { Badge, Button, Flex, Text } from '@radix-ui/themes';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { formatDuration } from '../../engine/ui/format-date.js';
import { tokenStore } from '../auth/session.js';
import { toast } from '../lazy-toast.js';

/** From this much time left the label turns amber and offers to stay signed in. */
export const WARNING_MS = 5 * 60_000;
const WARNING_TOAST_ID = 'session-expiring';

function StaySignedIn({ onStay }: { onStay: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="2">
      <Text size="2">{t('common.session.expiringSoon')}</Text>
      <Flex>
        <Button size="1" onClick={onStay}>
          {t('common.session.staySignedIn')}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * The header's 'turns remaining' label: the session time left, counting down each second. With
 * five minutes left it offers to stay signed in (a refresh) unless the user has been active (an
 * active session is refreshed by itself a minute before expiry).
 */
export function SessionTimer() {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => tokenStore.timeLeftMs());
  const warnedFor = useRef<number | null>(null);

  useEffect(() => {
    const tick = () => {
      const session = tokenStore.read();
      const remaining = session ? session.expiresAt - Date.now() : null;
      setLeft(remaining);
      if (!session || remaining === null) return;
      if (remaining > WARNING_MS) {
        if (warnedFor.current !== null) toast.dismiss(WARNING_TOAST_ID);
        warnedFor.current = null;
        return;
      }
      if (warnedFor.current === session.expiresAt || tokenStore.isActiveSinceIssue() || !session.refreshToken) return;
      warnedFor.current = session.expiresAt;
      const stay = () => {
        toast.dismiss(WARNING_TOAST_ID);
        void tokenStore.refresh().then((ok) => {
          if (ok) toast.success(t('common.session.extended'));
        });
      };
      toast.warning(<StaySignedIn onStay={stay} />, { toastId: WARNING_TOAST_ID, autoClose: false, closeOnClick: false });
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [t]);

  if (left === null) return null;
  const label = t('common.session.remaining', { time: formatDuration(left) });
  return (
    <Badge size="2" color={left <= WARNING_MS ? 'amber' : 'gray'} variant="soft" title={label} data-testid="session-timer">
      <ClockIcon aria-hidden />
      <Text className="session-timer-text">{label}</Text>
    </Badge>
  );
}
