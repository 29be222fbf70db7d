import type { Id, ToastContent, ToastOptions } from 'react-toastify';
import { requestToasts } from './notify.js';

// The app's one way to show a toast: the engine's toast port (`toast-provider.tsx`) is this, and
// only the shell's own parts outside the port's reach use it directly (the sign-in page, whose
// first load carries no engine module; the session timer). react-toastify loads after the first
// screen, not with it: a toast asks for the container (once) and is shown once the module has
// arrived (at once when it already has); react-toastify queues any toast shown before the app's
// one container has mounted.

let module: Promise<typeof import('react-toastify')> | undefined;
const load = () =>
  (module ??= import('react-toastify').catch((error: unknown) => {
    module = undefined;
    throw error;
  }));

type Show = (content: ToastContent, options?: ToastOptions) => void;
const show =
  (kind: 'success' | 'error' | 'info' | 'warning'): Show =>
  (content, options) => {
    requestToasts();
    void load().then(
      ({ toast }) => toast[kind](content, options),
      () => undefined,
    );
  };

/** `toast.success(...)` and the rest, as react-toastify's, without putting it in the first load. */
export const toast = {
  success: show('success'),
  error: show('error'),
  info: show('info'),
  warning: show('warning'),
  dismiss(id?: Id): void {
    void load().then(
      ({ toast: real }) => real.dismiss(id),
      () => undefined,
    );
  },
};
