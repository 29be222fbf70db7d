import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MailMessage, renderedMail, translate } from '../../src/server/auth/mailer.js';
import { productName } from '../../src/server/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

const PROGRAMME = 'Malaysian Digital Awards 2026';

describe.each(testDatabaseKinds())('the product name on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let outbox: MailMessage[];

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind));
    outbox = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void outbox.push(renderedMail(message)));
  });
  afterAll(async () => {
    // The name is the process's too (translate's default): leave the default for the next file.
    await admin?.put('/api/settings/product', { name: null });
    await t?.close();
  });

  it("is the spec's 'Awards CMS' until the programme names itself, for anyone (the sign-in page asks)", async () => {
    const anon = await new TestClient(t.app).init();
    const res = await anon.get('/api/settings/product');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name: 'Awards CMS', custom: false, default: 'Awards CMS' });
    expect((await anon.put('/api/settings/product', { name: PROGRAMME })).status).toBe(401);
  });

  it("takes the programme's own name from an admin, audited, and titles the mails with it", async () => {
    const res = await admin.put('/api/settings/product', { name: `  ${PROGRAMME}  ` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name: PROGRAMME, custom: true, default: 'Awards CMS' });
    expect((await (await new TestClient(t.app).init()).get('/api/settings/product')).body.data.name).toBe(PROGRAMME);
    expect(await productName(t.app.db)).toBe(PROGRAMME);
    const audit = await t.app.db.selectFrom('audit_log').select(['action', 'entity']).where('action', '=', 'settings.product_name').execute();
    expect(audit).toEqual([{ action: 'settings.product_name', entity: 'settings' }]);

    expect(translate('ms', 'emails.passwordReset.subject')).toBe(`Set semula kata laluan ${PROGRAMME} anda`);
    expect((await (await new TestClient(t.app).init()).post('/api/auth/forgot-password', { email: ADMIN_EMAIL })).status).toBeLessThan(300);
    await vi.waitFor(() => expect(outbox.at(-1)?.subject).toBe(`Reset your ${PROGRAMME} password`));
  });

  it('refuses a name over 80 characters by its key, and goes back to the default when blank', async () => {
    const long = await admin.put('/api/settings/product', { name: 'x'.repeat(81) });
    expect(long.status).toBe(422);
    expect(long.body.errors[0]).toMatchObject({ path: 'name', messageKey: 'validation.productName.max' });
    const blank = await admin.put('/api/settings/product', { name: '   ' });
    expect(blank.body.data).toEqual({ name: 'Awards CMS', custom: false, default: 'Awards CMS' });
    expect(translate('en', 'emails.invitation.subject')).toBe('You are invited to Awards CMS');
  });
});
