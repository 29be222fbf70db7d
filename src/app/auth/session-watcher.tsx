import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { tokenStore } from './session.js';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Follows the session from anywhere in the app: an ended session (401, refused refresh, idle
 * expiry, a sign-out in another tab) leads to `/logout` with its reason, or to `/login` after a
 * sign-out elsewhere; input events count as activity, so an active session is refreshed in time.
 */
export function SessionWatcher() {
  const navigate = useNavigate();

  useEffect(
    () =>
      tokenStore.subscribe((event) => {
        if (event.type !== 'cleared') return;
        if (event.reason === 'LOGOUT') {
          if (event.fromOtherTab) void navigate('/login', { replace: true, state: { authorisedLogout: true } });
          return;
        }
        void navigate('/logout', { replace: true, state: { reason: event.reason } });
      }),
    [navigate],
  );

  useEffect(() => {
    let last = 0;
    const note = () => {
      const now = Date.now();
      if (now - last < 5_000) return;
      last = now;
      tokenStore.noteActivity();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, note, { passive: true, capture: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, note, { capture: true });
    };
  }, []);

  return null;
}
