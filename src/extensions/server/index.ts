import { registerServerExtension } from '../../shared/extension/server-hooks.js';
import { hashPassword } from '../hooks/hash-password.js';
import { lowercaseEmail } from '../hooks/lowercase-email.js';
import { slugFromName } from '../hooks/slug-from-name.js';

/**
 * The application's server slot: write hooks by the name a descriptor gives in
 * `hooks.beforeWrite`, registered through the one registration call. To add one, write it in
 * `../hooks/` and add a line here; the server loads this module before it reads the descriptors.
 */
registerServerExtension({
  hooks: {
    'slug-from-name': slugFromName,
    'hash-password': { beforeWrite: hashPassword, rowLocal: true },
    'lowercase-email': { beforeWrite: lowercaseEmail, rowLocal: true },
  },
});
