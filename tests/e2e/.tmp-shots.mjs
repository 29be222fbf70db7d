import { chromium } from 'playwright-core';
const url = process.argv[2];
const paths = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })).newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await page.goto(`${url}/login`);
await page.locator('input[name="email"]').fill('admin@example.com');
await page.locator('input[name="password"]').fill('correct-horse-battery');
await page.locator('form button[type="submit"]').click();
await page.waitForURL((t) => !t.pathname.startsWith('/login'));
for (const p of paths) {
  const [path, action] = p.split('#');
  await page.goto(`${url}${path}`);
  await page.waitForTimeout(2500);
  if (action === 'submit') { await page.locator('form button[type="submit"]').click(); await page.waitForTimeout(800); }
  const name = path.replace(/[^a-z0-9]+/gi, '_') + (action ? '_' + action : '');
  await page.screenshot({ path: `/tmp/ent/shots/${name}.png`, fullPage: true });
  console.log('shot', name);
}
await browser.close();
