// The port through which the app hears that the server has extra translations. A module of its
// own, without TanStack Query: the app's i18n (in the sign-in page's first load) listens here.

let extraTranslationsListener: (() => void) | undefined;

/**
 * The port through which the app hears that the server has extra translations (an added entity's
 * labels, `LOCALES_DIR`), so that it asks for them only then.
 */
export function onExtraTranslations(listener: () => void): void {
  extraTranslationsListener = listener;
}

/** Tells the listener that the descriptors' answer said there are extra translations. */
export function announceExtraTranslations(): void {
  extraTranslationsListener?.();
}
