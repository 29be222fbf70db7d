import type { ReactNode } from 'react';
import { type ToastApi, ToastContext, type ToastId, type ToastOptions } from '../engine/ui/toast-context.js';
import { toast } from './lazy-toast.js';

let next = 0;
/** Shows a toast through the lazily loaded react-toastify, answering its id at once (the caller's, or a new one). */
const show =
  (kind: 'success' | 'error' | 'info' | 'warning') =>
  (message: ReactNode, options?: ToastOptions): ToastId => {
    const toastId = options?.toastId ?? `toast-${++next}`;
    toast[kind](message, { ...options, toastId });
    return toastId;
  };

/**
 * The engine's toast port on react-toastify (the one container is the app's `Toasts`). The library
 * loads after the first screen (`lazy-toast.ts`), so a shown toast's id is chosen here rather than
 * returned by react-toastify.
 */
export const reactToastify: ToastApi = {
  success: show('success'),
  error: show('error'),
  info: show('info'),
  warning: show('warning'),
  dismiss: (id) => toast.dismiss(id),
};

/** Provides the toast service to the engine and the screens, as `DialogProvider` provides dialogs. */
export function ToastProvider({ children }: { children: ReactNode }) {
  return <ToastContext.Provider value={reactToastify}>{children}</ToastContext.Provider>;
}
