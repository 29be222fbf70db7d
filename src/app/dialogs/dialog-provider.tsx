import { lazy, type ReactNode, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import {
  type AlertOptions,
  type ConfirmOptions,
  type CustomOptions,
  type DialogApi,
  DialogContext,
  type DialogOptions,
} from '../../engine/ui/dialog-context.js';
import type { DialogEntry } from './dialog-entry.js';

// Loaded on the first dialog, so the sign-in page does not carry the dialog components.
const DialogView = lazy(() => import('./dialog-view.js').then((module) => ({ default: module.DialogView })));

let sequence = 0;

/** A time-based id, unique within the page even when two dialogs open in the same millisecond. */
export function generateDialogId(): string {
  sequence += 1;
  return `dialog-${Date.now()}-${sequence}`;
}

/**
 * Implements the dialog service with Radix Themes dialogs: alert, confirm and custom,
 * sizes sm to full, loading states, ids, and the resolve rules documented on {@link DialogApi}.
 */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<DialogEntry[]>([]);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  const update = useCallback((id: string, patch: Partial<Pick<DialogEntry, 'isLoading'>>) => {
    setEntries((current) => current.map((entry) => (entry.id === id ? ({ ...entry, ...patch } as DialogEntry) : entry)));
  }, []);

  const remove = useCallback((id: string) => {
    setEntries((current) => current.filter((entry) => entry.id !== id));
  }, []);

  /** Closes with the kind's "dismissed" value: alert → undefined, confirm → false, custom → the value. */
  const dismiss = useCallback(
    (id: string, value?: unknown) => {
      const entry = entriesRef.current.find((candidate) => candidate.id === id);
      if (!entry) return;
      remove(id);
      if (entry.type === 'confirm') entry.settle(false);
      else if (entry.type === 'alert') entry.settle();
      else entry.settle(value);
    },
    [remove],
  );

  const push = useCallback(
    (entry: DialogEntry) => {
      // Reusing an open dialog's id replaces it; the old one counts as dismissed.
      if (entriesRef.current.some((candidate) => candidate.id === entry.id)) dismiss(entry.id);
      entriesRef.current = [...entriesRef.current.filter((candidate) => candidate.id !== entry.id), entry];
      setEntries(entriesRef.current);
    },
    [dismiss],
  );

  const api = useMemo<DialogApi>(() => {
    const alert = (options: AlertOptions) =>
      new Promise<void>((settle) => push({ id: options.id ?? generateDialogId(), type: 'alert', options, isLoading: false, settle }));
    const confirm = (options: ConfirmOptions) =>
      new Promise<boolean>((settle) => push({ id: options.id ?? generateDialogId(), type: 'confirm', options, isLoading: false, settle }));
    const custom = (options: CustomOptions) =>
      new Promise<unknown>((settle) => push({ id: options.id ?? generateDialogId(), type: 'custom', options, isLoading: false, settle }));
    return {
      alert,
      confirm,
      custom,
      open(options: DialogOptions) {
        switch (options.type) {
          case 'alert':
            return alert(options);
          case 'confirm':
            return confirm(options);
          case 'custom':
            return custom(options);
          default:
            return Promise.reject(new Error(`Unknown dialog type: ${String((options as { type?: unknown }).type)}`));
        }
      },
      close: (id: string) => dismiss(id),
    };
  }, [push, dismiss]);

  const onConfirm = useCallback(
    async (entry: DialogEntry) => {
      if (entry.type === 'custom') return;
      update(entry.id, { isLoading: true });
      try {
        await entry.options.onConfirm?.();
      } catch (error) {
        if (entry.type === 'confirm') {
          console.error('Confirmation failed', error);
          update(entry.id, { isLoading: false });
          entry.settle(false);
          return;
        }
        console.error('Alert action failed', error);
      }
      remove(entry.id);
      if (entry.type === 'confirm') entry.settle(true);
      else entry.settle();
    },
    [remove, update],
  );

  const onCancel = useCallback(
    async (entry: DialogEntry) => {
      if (entry.type === 'confirm') {
        try {
          await entry.options.onCancel?.();
        } catch (error) {
          console.error('Cancel action failed', error);
        }
      }
      dismiss(entry.id);
    },
    [dismiss],
  );

  return (
    <DialogContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>
        {entries.map((entry) => (
          <DialogView
            key={entry.id}
            entry={entry}
            onConfirm={() => void onConfirm(entry)}
            onCancel={() => void onCancel(entry)}
            onClose={(value) => dismiss(entry.id, value)}
          />
        ))}
      </Suspense>
    </DialogContext.Provider>
  );
}
