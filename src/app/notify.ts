import { useSyncExternalStore } from 'react';

let requested = false;
const listeners = new Set<() => void>();

/**
 * Asks the app to mount the one toast container (once; later calls do nothing). The sign-in page
 * shows none until its first toast, so react-toastify stays out of its first load; every other
 * screen asks for it as it loads (see router.tsx), since its toasts (the engine's through the toast
 * port, `ToastProvider`) need the container.
 */
export function requestToasts(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once {@link requestToasts} has been called: the app then renders the toast container. */
export function useToastsRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => requested,
    () => requested,
  );
}
