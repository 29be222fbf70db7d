import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountRoles } from '../../src/features/accounts/index.js';
import { knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { assertDeclaredRoles } from '../../src/server/plugins/auth.js';
import { DescriptorError } from '../../src/shared/descriptor/descriptor-error.js';
import { type EntitySource, loadEntities } from '../../src/shared/descriptor/load-entities.js';
import { ADMIN_ROLE, homePathFor, isRole, registerRoles, roleDeclaration, roleLinks, roleNames } from '../../src/shared/roles.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

function source(name: string): EntitySource {
  const file = path.join('tests/fixtures/entities', `${name}.json`);
  const schemaFile = path.join('tests/fixtures/schemas', `${name}.schema.json`);
  return { file, descriptor: read(file), schemaFile, schema: read(schemaFile) };
}

// The accounts feature's server face declares its roles as it loads (tests/helpers/register-server.ts).
describe('roles declared by the features', () => {
  it('are the accounts feature’s admin and juror, with their homes and the juror’s link', () => {
    expect(roleNames()).toEqual(expect.arrayContaining(['admin', 'juror']));
    expect(isRole(ADMIN_ROLE)).toBe(true);
    expect(isRole('nobody')).toBe(false);
    expect(homePathFor('juror')).toBe('/jury');
    expect(homePathFor('admin')).toBe('/dashboard');
    expect(homePathFor(undefined)).toBe('/dashboard');
    expect(homePathFor('nobody')).toBe('/dashboard');
    expect(roleLinks()).toEqual([
      expect.objectContaining({ role: 'juror', entity: 'jury', column: 'jury_id', userField: 'juryId' }),
      // The entrants feature's: a submittor's account stands for their record.
      expect.objectContaining({ role: 'entrant', entity: 'customer', column: 'customer_id', userField: 'customerId' }),
    ]);
    expect(homePathFor('entrant')).toBe('/entries');
  });

  it('takes the same declaration again, and refuses another one under a declared name or link column', () => {
    expect(() => registerRoles(accountRoles)).not.toThrow();
    expect(() => registerRoles([{ name: 'juror', home: '/elsewhere' }])).toThrow('The role "juror" is declared twice, differently.');
    expect(() => registerRoles([{ name: 'Power User', home: '/' }])).toThrow('lower snake_case');
    const link = roleDeclaration('juror')!.link!;
    expect(() => registerRoles([{ name: 'panelist', home: '/panel', link }])).toThrow('both link through users.jury_id');
    expect(isRole('panelist')).toBe(false);
  });

  it('lets a later feature declare a role of its own', () => {
    registerRoles([{ name: 'panel_chair', home: '/my-panels' }]);
    expect(isRole('panel_chair')).toBe(true);
    expect(roleNames()).toContain('panel_chair');
    expect(homePathFor('panel_chair')).toBe('/my-panels');
  });

  it('stops start-up on a route or a descriptor naming an undeclared role', () => {
    expect(() => assertDeclaredRoles({ method: 'GET', url: '/api/x', config: { roles: ['admin', 'juror'] } })).not.toThrow();
    expect(() => assertDeclaredRoles({ method: 'GET', url: '/api/x' })).not.toThrow();
    expect(() => assertDeclaredRoles({ method: ['GET', 'HEAD'], url: '/api/x', config: { roles: ['admin', 'jurror'] } })).toThrow(
      'The route GET,HEAD /api/x allows the undeclared role(s) jurror',
    );

    const sources = [source('fixture_maker'), source('fixture_gadget'), source('fixture_ledger')];
    const options = { knownHooks: registeredHookNames(), names: knownExtensionNames, knownRoles: roleNames() };
    expect(() => loadEntities(sources, options)).not.toThrow();
    (sources[1]!.descriptor as { permissions: { list: string[] } }).permissions.list = ['admin', 'ghost'];
    let error: unknown;
    try {
      loadEntities(sources, options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DescriptorError);
    expect(String((error as Error).message)).toContain('unknown role "ghost"');
    expect(String((error as Error).message)).toContain('/permissions/list/1');
  });
});
