import type { FastifyInstance } from 'fastify';
import { DEFAULT_PRODUCT_TITLE, PRODUCT_TITLE_MAX } from '../../shared/product.js';
import { ADMIN_ROLE } from '../../shared/roles.js';
import { writeAudit } from '../auth/audit.js';
import { productName, setProductName } from '../settings/product-name.js';
import { object } from './auth.js';

const productResponse = object(
  { data: object({ name: { type: 'string' }, custom: { type: 'boolean' }, default: { type: 'string' } }, ['name', 'custom', 'default']) },
  ['data'],
);
const answer = (name: string) => ({ data: { name, custom: name !== DEFAULT_PRODUCT_TITLE, default: DEFAULT_PRODUCT_TITLE } });

/**
 * The product's name (GET, public: the sign-in page titles itself with it) and the admin's setting of
 * the programme's own name (PUT; blank goes back to 'Awards CMS'), under /api/settings.
 */
export async function settingsRoutes(app: FastifyInstance) {
  app.get('/settings/product', { config: { public: true }, schema: { response: { 200: productResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return answer(await productName(app.database.db));
  });

  app.put<{ Body: { name: string | null } }>(
    '/settings/product',
    {
      config: {
        roles: [ADMIN_ROLE],
        messages: { name: { maxLength: 'validation.productName.max', type: 'validation.productName.max', required: 'validation.productName.max' } },
      },
      schema: {
        body: object({ name: { type: ['string', 'null'], maxLength: PRODUCT_TITLE_MAX } }, ['name']),
        response: { 200: productResponse },
      },
    },
    async (request) => {
      const db = app.database.db;
      const before = await productName(db);
      const name = await db.transaction().execute(async (trx) => {
        const next = await setProductName(trx, request.body.name);
        if (next !== before)
          await writeAudit(trx, {
            action: 'settings.product_name',
            userId: Number(request.user.id),
            ip: request.ip,
            entity: 'settings',
            entityId: 'product_name',
            before: { name: before },
            after: { name: next },
          });
        return next;
      });
      return answer(name);
    },
  );
}
