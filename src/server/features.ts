import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely';
import type { ExtensionNames } from '../shared/descriptor/extension-names.js';
import { registerServerExtension, type ServerExtension } from '../shared/extension/server-hooks.js';
import { registerFieldOnlyCells } from '../shared/list-request.js';
import { type RoleDeclaration, registerRoles } from '../shared/roles.js';
import type { Mailer } from './auth/mailer.js';
import { registerExtensionNames } from './extensions.js';
import { type ListScope, registerListScope } from './operations/list-scope.js';
import { type RemoveGuard, registerRemoveGuard } from './operations/remove-guards.js';
import { registerScheduledJob, type ScheduledJob } from './scheduler/scheduler.js';

/**
 * A workflow's server part, registered by name through {@link registerServerFeature}: the server
 * names no feature, it runs whatever was registered before `buildApp` was called.
 */
export interface ServerFeature {
  /** The feature's folder name (`judging`); a name registered twice with another feature is an error. */
  name: string;
  /**
   * Plugins that need the database and run before any route (seeding, background jobs): each is
   * registered on the root instance in registration order, so wrap it with `fastify-plugin` when
   * what it decorates must be seen by the routes.
   */
  setup?: FastifyPluginAsync;
  /** The feature's routes, registered under `/api` with their schemas (each feature encapsulated). */
  routes?: FastifyPluginAsync;
  /** The roles the feature needs (their home path, the record an account of the role is linked to). */
  roles?: readonly RoleDeclaration[];
  /** Write hooks by the name a descriptor's `hooks.beforeWrite` gives. */
  hooks?: ServerExtension['hooks'];
  /** The names of the cells, widgets, filter inputs and row actions its client part registers (descriptors may use them). */
  clientNames?: ExtensionNames;
  /**
   * Narrowings of every entity list, its export and bulk selection for the caller (the current
   * edition's records): see `operations/list-scope.ts`.
   */
  listScopes?: readonly ListScope[];
  /** Checks run before any record is deleted, in the delete's transaction (throw to refuse). */
  removeGuards?: readonly RemoveGuard[];
  /** The feature's own system tables, by migration name (run with the server's, unordered). */
  migrations?: Readonly<Record<string, Migration>>;
  /**
   * Replaces the server's mailer (`app.mailer`): given the app (its database is open and migrated)
   * and the core mailer (SMTP or the log), answers the one every sender uses. At most one feature.
   */
  mailer?: (app: FastifyInstance, core: Mailer) => Mailer;
  /** Jobs for the one scheduler (`scheduler/scheduler.ts`): each run by exactly one server at a time. */
  jobs?: readonly ScheduledJob[];
}

const features = new Map<string, ServerFeature>();

/**
 * Registers a feature's server part: its plugins, routes, hooks and migrations. The one call for the
 * features the console ships (`src/registry/server.ts`) and for an application's own routes.
 *
 * @example registerServerFeature({ name: 'public-vote', routes: publicVoteRoutes, migrations: { '900-public-votes': votesTable } });
 */
export function registerServerFeature(feature: ServerFeature): void {
  const existing = features.get(feature.name);
  if (existing === feature) return;
  if (existing) throw new Error(`The server feature "${feature.name}" is registered twice.`);
  const mailerOwner = feature.mailer && [...features.values()].find((other) => other.mailer);
  if (mailerOwner) throw new Error(`The server features "${mailerOwner.name}" and "${feature.name}" both provide the mailer.`);
  features.set(feature.name, feature);
  if (feature.roles) registerRoles(feature.roles);
  if (feature.hooks) registerServerExtension({ hooks: feature.hooks });
  if (feature.clientNames) registerExtensionNames(feature.clientNames);
  registerFieldOnlyCells(feature.clientNames?.fieldOnlyCells);
  for (const scope of feature.listScopes ?? []) registerListScope(scope);
  for (const guard of feature.removeGuards ?? []) registerRemoveGuard(guard);
  for (const job of feature.jobs ?? []) registerScheduledJob(job);
}

/** Every registered feature, in registration order. */
export function registeredServerFeatures(): readonly ServerFeature[] {
  return [...features.values()];
}

/** The registered features' migrations, by name. */
export function featureMigrations(): Record<string, Migration> {
  const all: Record<string, Migration> = {};
  for (const feature of features.values()) {
    for (const [name, migration] of Object.entries(feature.migrations ?? {})) {
      if (all[name] && all[name] !== migration) throw new Error(`The migration "${name}" is registered twice.`);
      all[name] = migration;
    }
  }
  return all;
}
