import { describe, expect, it } from 'vitest';
// The features' menu entries and groups, registered as the app's entry does.
import '../../src/registry/client.js';
import { buildNav, menuIcon } from '../../src/app/layout/nav-items.js';
import { knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { readEntitySources } from '../../src/server/plugins/entities.js';
import { toClientEntity } from '../../src/shared/descriptor/client-entity.js';
import { loadEntities } from '../../src/shared/descriptor/load-entities.js';
import type { ClientEntity } from '../../src/shared/descriptor/types.js';

const loaded = loadEntities(readEntitySources({ entitiesDirs: ['entities'], schemasDirs: ['schemas'] }), {
  knownHooks: registeredHookNames(),
  names: knownExtensionNames,
});
const metaFor = (role: string): ClientEntity[] =>
  loaded
    .map((entity) => toClientEntity(entity, role))
    .filter((entity) => Object.values(entity.permissions).some(Boolean))
    .sort((a, b) => a.menu.order - b.menu.order || a.name.localeCompare(b.name));
const shape = (groups: ReturnType<typeof buildNav>) => groups.map((group) => [group.labelKey, group.items.map((item) => `${item.to} ${item.labelKey}`)]);

describe('the menu built from the descriptors', () => {
  it('is the spec menu for an admin, entry for entry', () => {
    expect(shape(buildNav('admin', metaFor('admin')))).toEqual([
      ['nav.groups.overview', ['/dashboard nav.dashboard', '/import-data nav.importData']],
      [
        'nav.groups.contest',
        [
          '/submissions nav.submissions',
          '/manage-contest nav.contests',
          '/review-entries entrants.review.title',
          '/manage-customer nav.submittors',
          '/manage-applicant nav.applicants',
          '/manage-campaign nav.campaigns',
        ],
      ],
      [
        'nav.groups.judging',
        [
          '/manage-jury nav.juries',
          '/jury-portal-invites accounts.portal.bulkTitle',
          '/manage-exam nav.examinations',
          '/exam-judging judging.actions.judging',
          '/manage-award-category nav.awardCategories',
        ],
      ],
      [
        'nav.groups.setup',
        [
          '/manage-company nav.companies',
          '/manage-edition nav.editions',
          '/manage-category nav.categories',
          '/audit-log history.audit.nav',
          '/trash history.trash.nav',
          '/manage-account nav.accounts',
          '/outbox nav.outbox',
          '/profile nav.profile',
        ],
      ],
    ]);
  });

  it('gives a juror the jury portal and the profile only', () => {
    expect(shape(buildNav('juror', metaFor('juror')))).toEqual([['nav.groups.jury', ['/jury nav.jury', '/profile nav.profile']]]);
    expect(buildNav(undefined, metaFor('admin'))).toEqual([]);
  });

  it('adds an entity with its group, order and icon, and leaves out one the caller may not list or that hides itself', () => {
    const contest = metaFor('admin').find((entity) => entity.name === 'contest')!;
    const sponsor: ClientEntity = {
      ...contest,
      name: 'sponsor',
      routes: { ...contest.routes, list: 'manage-sponsor' },
      menu: { show: true, order: 1, group: 'partners', icon: 'HeartIcon', label: 'entities.sponsor.menu' },
    };
    const hidden = { ...sponsor, name: 'hidden', menu: { ...sponsor.menu, show: false } };
    const unlisted = { ...sponsor, name: 'unlisted', permissions: { ...sponsor.permissions, list: false } };
    const groups = buildNav('admin', [sponsor, hidden, unlisted]);
    expect(groups.at(-1)).toEqual({
      id: 'partners',
      labelKey: 'nav.groups.partners',
      items: [{ to: '/manage-sponsor', labelKey: 'entities.sponsor.menu', icon: menuIcon('HeartIcon') }],
    });
    expect(groups.flatMap((group) => group.items).filter((item) => item.to === '/manage-sponsor')).toHaveLength(1);
    expect(menuIcon('HeartIcon')).not.toBe(menuIcon(undefined));
    expect(menuIcon('constructor')).toBe(menuIcon(undefined));
  });
});
