import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerExtension } from '../../src/engine/registry/extension-registry.js';
import { ScreenHeader } from '../../src/engine/ui/screen-header.js';
import { SessionContext } from '../../src/engine/ui/session-context.js';
import { entrantsClient } from '../../src/features/entrants/client.js';
import type { AuthUser } from '../../src/shared/api-contract.js';
import { TEST_ADMIN } from '../helpers/test-users.js';
import { renderWidget } from '../helpers/widgets-render.js';

const ENTRANT: AuthUser = { ...TEST_ADMIN, id: '7', email: 'rina@agency.example', role: 'entrant' };

const trailOf = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

/** The breadcrumbs start at the signed-in role's home, named as that role's menu names it. */
describe("ScreenHeader's home", () => {
  beforeAll(() => registerExtension(entrantsClient));

  it("starts an admin's trail at the dashboard", async () => {
    await renderWidget(
      <SessionContext.Provider value={{ user: TEST_ADMIN }}>
        <ScreenHeader trail={[{ label: 'Audit log' }]} heading="Audit log" />
      </SessionContext.Provider>,
    );
    expect(trailOf()).toEqual(['Dashboard', 'Audit log']);
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it("starts an entrant's trail at their home, never at the admins' dashboard", async () => {
    await renderWidget(
      <SessionContext.Provider value={{ user: ENTRANT }}>
        <ScreenHeader trail={[{ label: 'Profile' }]} heading="Profile" />
      </SessionContext.Provider>,
    );
    expect(trailOf()).toEqual(['My entries', 'Profile']);
    expect(screen.getByRole('link', { name: 'My entries' }).getAttribute('href')).toBe('/entries');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });

  it('shows a trail that already starts at the home as it is', async () => {
    await renderWidget(
      <SessionContext.Provider value={{ user: ENTRANT }}>
        <ScreenHeader trail={[{ label: 'My entries', url: '/entries' }, { label: 'Entry #3' }]} heading="Entry #3" />
      </SessionContext.Provider>,
    );
    expect(trailOf()).toEqual(['My entries', 'Entry #3']);
  });
});
