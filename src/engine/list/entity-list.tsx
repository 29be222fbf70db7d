import { PlusIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Flex, Link, Text } from '@radix-ui/themes';
import { memo, type ReactElement, useCallback } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError } from '../data/api-error.js';
import { entityPaths, entityText, entityTextKeys, entityTextValues } from '../data/entity-labels.js';
import type { EntityRecord } from '../data/entity-queries.js';
import { useDeleteWithConfirm } from '../data/use-entity-mutations.js';
import { useTranslation } from '../i18n/use-translation.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { ErrorState, LoadingState, NoticeState } from '../ui/screen-states.js';
import { BulkBar, hasBulkActions, useBulkSelection } from './bulk-bar.js';
import { EntityTable } from './entity-table.js';
import { ExportButton } from './export-button.js';
import { FilterPanel } from './filter-panel.js';
import { ListToolbar } from './list-toolbar.js';
import { Pagination } from './pagination.js';
import { SavedViews } from './saved-views.js';
import { type EntityListController, useEntityList } from './use-entity-list.js';

/**
 * The empty list: the descriptor's empty text ('No records found'), then its hint, and with a
 * filter applied the filtered hint and a 'Clear all filters' link back to the unfiltered list.
 */
function EmptyList({ list }: { list: EntityListController }): ReactElement {
  const { t } = useTranslation();
  const { texts } = list.entity.list;
  const hint = list.hasFilters ? texts.emptyFilteredHint : texts.emptyHint;
  return (
    <NoticeState
      message={
        <Flex direction="column" gap="1" align="center" asChild>
          <span>
            <Text weight="medium">{entityText(list.entity, 'empty', t)}</Text>
            {hint && <Text size="2">{t(hint)}</Text>}
            {list.hasFilters && (
              <Link asChild size="2">
                <button type="button" onClick={() => list.resetFilters()}>
                  {t('common.filters.clear_all')}
                </button>
              </Link>
            )}
          </span>
        </Flex>
      }
    />
  );
}

/**
 * The filter card renders again only when what it shows changes: the filters, the sort, the search
 * or the page size, not the page ('Next' went through every filter's label and translation). The
 * actions of an older `list` it may keep are right for the current page too: applying filters and
 * resetting them both go back to page 1, and every other value they read is compared here.
 */
const StableFilterPanel = memo(FilterPanel, (before, after) => {
  const shown = (list: EntityListController) => JSON.stringify([list.filters, list.sort, list.search, list.perPage]);
  return before.list.entity === after.list.entity && shown(before.list) === shown(after.list);
});

/**
 * The generic list screen: breadcrumbs, heading and create button, then the table with its
 * loading ('Loading...'), error ('Error loading categories: …', or with `list.texts.errorTitle` a
 * heading over the message) and empty ('No categories found.') states in the descriptor's words,
 * and the pagination bar.
 */
export function EntityList({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  usePageTitle(entityTextKeys(entity, 'title'), entityTextValues(entity, t));
  const list = useEntityList(entity);
  const { confirmDelete, deletingId } = useDeleteWithConfirm(entity);
  const onDelete = useCallback((record: EntityRecord) => void confirmDelete(record), [confirmDelete]);
  const paths = entityPaths(entity);
  const selection = useBulkSelection(list);
  const bulk = hasBulkActions(entity) ? selection : undefined;

  const texts = entity.list.texts;
  let body: ReactElement;
  if (list.isLoading) body = <LoadingState label={texts.loading ? t(texts.loading) : undefined} />;
  else if (list.error && list.rows.length === 0)
    body = (
      <Box p="4">
        {texts.errorTitle ? (
          <ErrorState title={t(texts.errorTitle)} message={describeError(list.error, t, t(texts.errorFallback ?? 'errors.somethingWentWrongTryAgain'))} />
        ) : (
          <ErrorState message={entityText(entity, 'loadError', t, { message: describeError(list.error, t) })} />
        )}
      </Box>
    );
  else if (list.rows.length === 0) body = <EmptyList list={list} />;
  else body = <EntityTable list={list} onDelete={onDelete} deletingId={deletingId} selection={bulk} />;

  return (
    <Flex direction="column">
      <ScreenHeader
        trail={[{ label: entityText(entity, 'title', t) }]}
        heading={entityText(entity, 'listTitle', t)}
        subheading={texts.total && !list.isLoading && !list.error ? t(texts.total, { total: list.total }) : undefined}
        actions={
          <Flex gap="2" align="center" wrap="wrap">
            <ExportButton list={list} />
            {entity.permissions.create && (
              <Button asChild size="2">
                <RouterLink to={paths.create}>
                  <PlusIcon aria-hidden />
                  {entityText(entity, 'createButton', t)}
                </RouterLink>
              </Button>
            )}
          </Flex>
        }
      />
      <SavedViews entity={entity} />
      {/* A list with a filter card keeps all its filters there (applied together), not in the toolbar. */}
      {entity.list.filterPanel ? <StableFilterPanel list={list} /> : <ListToolbar list={list} />}
      {bulk && <BulkBar list={list} selection={bulk} />}
      {list.rows.length > 0 ? body : <Card size="2">{body}</Card>}
      {list.rows.length > 0 && (
        <Pagination page={list.page} lastPage={list.lastPage} perPage={list.perPage} total={list.total} onPageChange={list.setPage} hrefFor={list.pageHref} />
      )}
    </Flex>
  );
}
