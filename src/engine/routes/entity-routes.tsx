import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ReactElement, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError } from '../data/api-error.js';
import { entityListOptions } from '../data/entity-queries.js';
import { metaEntitiesOptions, useMetaEntities } from '../data/use-meta.js';
import { useTranslation } from '../i18n/use-translation.js';
import { EntityList } from '../list/entity-list.js';
import { readListParams } from '../list/list-params.js';
import { prefetchPageAfter } from '../list/use-entity-list.js';

export { setNextPagePrefetch } from '../list/use-entity-list.js';

import { ErrorState, LoadingState } from '../ui/screen-states.js';

// RJSF and ajv load only when a form is opened, not with the lists.
const EntityCreateScreen = lazy(async () => ({ default: (await import('../form/entity-create-screen.js')).EntityCreateScreen }));
const EntityEditScreen = lazy(async () => ({ default: (await import('../form/entity-edit-screen.js')).EntityEditScreen }));
const EntityDetail = lazy(async () => ({ default: (await import('../detail/entity-detail.js')).EntityDetail }));

/** Props of {@link EntityRoutes}. */
export interface EntityRoutesProps {
  /** What to render when no entity descriptor route matches the location (the 404 page). */
  fallback: ReactNode;
}

/** A screen the admin may open, else the 403 page. */
function guarded(allowed: boolean, screen: ReactElement): ReactElement {
  return allowed ? screen : <Navigate to="/403" replace />;
}

/** The routes of one entity, relative to where `EntityRoutes` is mounted. */
function routesOf(entity: ClientEntity): ReactElement[] {
  const { routes, permissions: can } = entity;
  const key = (kind: string) => `${entity.name}:${kind}`;
  return [
    <Route key={key('list')} path={routes.list} element={guarded(can.list, <EntityList key={entity.name} entity={entity} />)} />,
    <Route key={key('create')} path={routes.create} element={guarded(can.create, <EntityCreateScreen key={entity.name} entity={entity} />)} />,
    <Route key={key('edit')} path={routes.edit} element={guarded(can.update, <EntityEditScreen key={entity.name} entity={entity} />)} />,
    <Route key={key('detail')} path={routes.detail} element={guarded(can.read, <EntityDetail key={entity.name} entity={entity} />)} />,
  ];
}

/**
 * Renders the list / detail / create / edit screen whose descriptor route matches the current location,
 * or `fallback` when none does. Mounted lazily by the shell as the `*` child of the authenticated layout;
 * the descriptors come from `GET /api/meta/entities` (loaded once).
 */
export function EntityRoutes(props: EntityRoutesProps): ReactElement {
  const { t } = useTranslation();
  const meta = useMetaEntities();
  if (meta.isPending) return <LoadingState />;
  if (meta.error) return <ErrorState message={describeError(meta.error, t)} />;
  return (
    <Suspense fallback={<LoadingState />}>
      <Routes>
        {meta.data.flatMap(routesOf)}
        <Route path="*" element={props.fallback} />
      </Routes>
    </Suspense>
  );
}

/**
 * Loads into `client` the descriptors and, when `pathname` is the list route of an entity the caller
 * may list, the page of it that `search` asks for: the same queries the list screen makes, so its
 * first render shows the rows (src/app/router.tsx calls this before the app's first render; the
 * boot script has most often started both requests, which the HTTP client then picks up).
 */
export async function prefetchFirstList(client: QueryClient, pathname: string, search: string): Promise<void> {
  const entities = await client.ensureQueryData(metaEntitiesOptions);
  const path = pathname.replace(/\/+$/, '');
  const entity = entities.find((candidate) => candidate.permissions.list && `/${candidate.routes.list}` === path);
  if (!entity) return;
  const request = readListParams(entity, new URLSearchParams(search));
  await client.prefetchQuery(entityListOptions(entity, request));
  prefetchPageAfter(client, entity, request);
}

export default EntityRoutes;
