/**
 * The event the app fires on `window` once its first screen is in the document: the boot script
 * (src/app/boot.ts) holds back what the first screen does not need until then.
 */
export const FIRST_SCREEN_EVENT = 'ac:first-screen';
