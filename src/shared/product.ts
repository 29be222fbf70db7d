/**
 * The product's identity, in one place for both sides: the generic server and client name no
 * product of their own.
 */

/**
 * The software's name for operators: the API document, start-up and error messages, backups. Screens, the
 * authenticator app's issuer and mails say {@link DEFAULT_PRODUCT_TITLE} or the programme's
 * own name (the `product_name` setting, `src/server/settings/product-name.ts`), never this.
 */
export const PRODUCT_NAME = 'Awards Console';

/** The product's name in the UI and in mails when the programme gave none: the spec's page title 'Awards CMS'. */
export const DEFAULT_PRODUCT_TITLE = 'Awards CMS';

/** The longest programme name the setting takes (it heads every page title and mail). */
export const PRODUCT_TITLE_MAX = 80;

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
