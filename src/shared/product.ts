/**
 * The product's identity, in one place for both sides: the generic server and client name no
 * product of their own.
 */

/** The product's name as people read it: the API document, start-up and error messages, the authenticator app's issuer. */
export const PRODUCT_NAME = 'Awards Console';

/**
 * The product's fixed identifier: the backup files' format name and the prefix of the key-derivation
 * labels (refresh tokens, device cookies, stored TOTP secrets). Never change it: every session,
 * device cookie and second factor would stop working and older backups would no longer be read.
 */
export const PRODUCT_ID = 'awards-console';

/** The first admin's e-mail address when `ADMIN_EMAIL` is not set. */
export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/** The sender of the mails when `MAIL_FROM` is not set. */
export const DEFAULT_MAIL_FROM = `${PRODUCT_NAME} <no-reply@localhost>`;
