import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, type StartedServer, settleAnimations, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = suite = await startBrowserSuite()));
afterAll(() => suite?.close());

/** A page at `width` in English; CSP bypassed so axe-core can be injected as an inline script. */
async function freshPage(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 }, locale: 'en-US', bypassCSP: true });
  return context.newPage();
}

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe-core (WCAG 2.x A/AA and best practices) on the page and returns its serious and critical violations. */
async function seriousViolations(page: Page): Promise<Finding[]> {
  await settleAnimations(page);
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

const describeFindings = (findings: Finding[]) =>
  findings.map((finding) => `[${finding.impact}] ${finding.id}: ${finding.help} at ${finding.targets.join(', ')}`).join('\n');

describe.each([1280, 390])('shell accessibility (axe-core) at %i px', (width) => {
  it('finds no serious or critical violation on the login page', async () => {
    const page = await freshPage(width);
    await withScreenshotOnFailure(page, `a11y-login-${width}`, async () => {
      await page.goto(`${server.url}/login?lng=en`);
      await page.getByRole('button', { name: 'Login' }).waitFor();
      // The language switcher names itself starting with the code it shows (label in name).
      expect(await page.getByTestId('language-switcher').getAttribute('aria-label')).toMatch(/^EN \(English\)/);
      const findings = await seriousViolations(page);
      expect(findings, describeFindings(findings)).toEqual([]);
    });
  });

  it('finds no serious or critical violation on the dashboard and the profile, anti-fraud notice included', async () => {
    const page = await freshPage(width);
    await withScreenshotOnFailure(page, `a11y-signed-in-${width}`, async () => {
      await page.goto(`${server.url}/login?lng=en`);
      await signIn(page, server.url, { goto: false });

      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).first().waitFor();
      await page.getByTestId('anti-fraud-notice').waitFor();
      await page.waitForLoadState('networkidle');
      const dashboard = await seriousViolations(page);
      expect(dashboard, describeFindings(dashboard)).toEqual([]);

      await page.goto(`${server.url}/profile`);
      await page.locator('main h1').first().waitFor();
      await page.getByTestId('anti-fraud-notice').waitFor();
      await page.waitForLoadState('networkidle');
      const profile = await seriousViolations(page);
      expect(profile, describeFindings(profile)).toEqual([]);
    });
  });
});
