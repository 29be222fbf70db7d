import type { ReactNode } from 'react';
import { createServiceContext } from './service-context.js';

/** A shown toast's id, to dismiss it. */
export type ToastId = string | number;

/** How one toast behaves; the shell's defaults apply to what is not given. */
export interface ToastOptions {
  /** Milliseconds before it closes by itself, or `false` to stay until closed. */
  autoClose?: number | false;
  /** Whether a click anywhere on it closes it (off when it holds a button, such as Undo). */
  closeOnClick?: boolean;
  /** An id of the caller's choosing: a second toast with the same id replaces none, it is not shown twice. */
  toastId?: ToastId;
}

/**
 * The toast service, as the engine sees it: the shell implements it (react-toastify in the app's
 * `ToastProvider`), the engine and the screens over it only call it, as they call the dialog
 * service. Messages are already translated by the caller.
 *
 * @example toasts.success(entityText(entity, 'created', t));
 */
export interface ToastApi {
  success(message: ReactNode, options?: ToastOptions): ToastId;
  error(message: ReactNode, options?: ToastOptions): ToastId;
  info(message: ReactNode, options?: ToastOptions): ToastId;
  warning(message: ReactNode, options?: ToastOptions): ToastId;
  dismiss(id: ToastId): void;
}

/** The service in context (null outside a `ToastProvider`), and `useToasts()`, which throws without one. */
export const [ToastContext, useToasts] = createServiceContext<ToastApi>('useToasts', 'ToastProvider');
