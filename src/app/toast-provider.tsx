import type { ReactNode } from 'react';
import { toast } from 'react-toastify';
import { ToastContext, type ToastApi } from '../engine/ui/toast-context.js';

/** The engine's toast port on react-toastify (the one container is the app's `Toasts`). */
export const reactToastify: ToastApi = {
  success: (message, options) => toast.success(message, options),
  error: (message, options) => toast.error(message, options),
  info: (message, options) => toast.info(message, options),
  warning: (message, options) => toast.warning(message, options),
  dismiss: (id) => toast.dismiss(id),
};

/** Provides the toast service to the engine and the screens, as `DialogProvider` provides dialogs. */
export function ToastProvider({ children }: { children: ReactNode }) {
  return <ToastContext.Provider value={reactToastify}>{children}</ToastContext.Provider>;
}
