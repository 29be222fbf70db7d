/**
 * The event the app fires on `window` once its first screen is in the document: the boot script
 * (src/app/boot.ts) holds back what the first screen does not need until then.
 */
export const FIRST_SCREEN_EVENT = 'ac:first-screen';

/** Where the boot script leaves the promise of its first screen (`globalThis`; the two are separate bundles). */
export const FIRST_SCREEN_KEY = '__acFirstScreen';

/**
 * Resolves once the boot script's first screen is shown (and painted) or will not be (no session,
 * no list, an error), or after `capMs`: at once when the boot script asked for none.
 */
export async function firstScreenSettled(capMs: number): Promise<void> {
  const pending = (globalThis as { [FIRST_SCREEN_KEY]?: Promise<boolean> })[FIRST_SCREEN_KEY];
  if (!pending) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const shown = await Promise.race([pending.catch(() => false), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), capMs)))]);
  clearTimeout(timer);
  // A frame for the browser to paint it before the app's code keeps the main thread busy (a tab in
  // the background paints no frames: then a tenth of a second).
  if (shown) {
    await new Promise<void>((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve, 0));
      setTimeout(resolve, 100);
    });
  }
}
