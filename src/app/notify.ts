import type { ToastOptions } from 'react-toastify';

/**
 * Shows a toast from a screen of the first load (the sign-in page) without putting
 * react-toastify into that load: the module is fetched on the first toast, by which time the
 * toast container (mounted right after the first render) has it too.
 */
export function notify(kind: 'success' | 'error' | 'info' | 'warning', message: string, options?: ToastOptions): void {
  void import('react-toastify').then(({ toast }) => toast[kind](message, options));
}
