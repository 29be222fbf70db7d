import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';
import { useTranslation } from '../i18n/use-translation.js';
import { useDialogs } from '../ui/dialog-context.js';

/**
 * Asks through the dialog service before leaving a changed form ('Leave this page?' Leave/Stay),
 * and lets the browser warn before closing or reloading the tab. Call the returned function just
 * before navigating away on purpose (after a save) so that navigation is not questioned.
 */
export function useUnsavedChangesGuard(dirty: boolean): () => void {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const dirtyRef = useRef(dirty);
  const allowRef = useRef(false);
  dirtyRef.current = dirty;

  const blocker = useBlocker(
    useCallback(({ currentLocation, nextLocation }) => dirtyRef.current && !allowRef.current && currentLocation.pathname !== nextLocation.pathname, []),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let active = true;
    void dialogs
      .confirm({
        title: t('common.unsaved.title'),
        description: t('common.unsaved.description'),
        confirmText: t('common.unsaved.leave'),
        cancelText: t('common.unsaved.stay'),
      })
      .then((leave) => {
        if (!active) return;
        if (leave) blocker.proceed();
        else blocker.reset();
      });
    return () => {
      active = false;
    };
  }, [blocker, dialogs, t]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return useCallback(() => {
    allowRef.current = true;
  }, []);
}
