import { PlusIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Flex } from '@radix-ui/themes';
import { useCallback, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError } from '../data/api-error.js';
import { entityPaths } from '../data/entity-labels.js';
import type { EntityRecord } from '../data/entity-queries.js';
import { useDeleteWithConfirm } from '../data/use-entity-mutations.js';
import { ErrorState, LoadingState, NoticeState } from '../ui/screen-states.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { EntityTable } from './entity-table.js';
import { Pagination } from './pagination.js';
import { useEntityList } from './use-entity-list.js';

/**
 * The generic list screen: breadcrumbs, heading and create button, then the table with its
 * loading ('Loading...'), error ('Error loading categories: …') and empty ('No categories found.')
 * states in the descriptor's words, and the pagination bar.
 */
export function EntityList({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  usePageTitle(entity.texts.title);
  const list = useEntityList(entity);
  const { confirmDelete, deletingId } = useDeleteWithConfirm(entity);
  const onDelete = useCallback((record: EntityRecord) => void confirmDelete(record), [confirmDelete]);
  const paths = entityPaths(entity);

  let body: ReactElement;
  if (list.isLoading) body = <LoadingState />;
  else if (list.error && list.rows.length === 0)
    body = (
      <Box p="4">
        <ErrorState message={t(entity.texts.loadError, { message: describeError(list.error, t) })} />
      </Box>
    );
  else if (list.rows.length === 0) body = <NoticeState message={t(entity.texts.empty)} />;
  else body = <EntityTable list={list} onDelete={onDelete} deletingId={deletingId} />;

  return (
    <Flex direction="column">
      <ScreenHeader
        trail={[{ label: t(entity.texts.title) }]}
        heading={t(entity.texts.listTitle)}
        actions={
          entity.permissions.create && (
            <Button asChild size="2">
              <RouterLink to={paths.create}>
                <PlusIcon aria-hidden />
                {t(entity.texts.createButton)}
              </RouterLink>
            </Button>
          )
        }
      />
      {list.rows.length > 0 ? body : <Card size="2">{body}</Card>}
      {list.rows.length > 0 && (
        <Pagination
          page={list.page}
          lastPage={list.lastPage}
          perPage={list.perPage}
          total={list.total}
          onPageChange={list.setPage}
        />
      )}
    </Flex>
  );
}
