import { BookmarkIcon, Cross2Icon } from '@radix-ui/react-icons';
import { Badge, Button, Checkbox, Flex, IconButton, Link, Popover, Text, TextField } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError } from '../data/api-error.js';
import { http } from '../data/http-client.js';
import { useTranslation } from '../i18n/use-translation.js';
import { useToasts } from '../ui/toast-context.js';

interface SavedView {
  id: number;
  name: string;
  query: string;
  shared: boolean;
  mine: boolean;
}

const viewsKey = (entity: ClientEntity) => ['views', entity.name] as const;

/** The browser query of the list without its page: what a view keeps. */
function viewQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('page');
  return params.toString();
}

/**
 * Saved views over a list: each a link to the list with its filters, search, sort
 * and page size (opening it reproduces the view), the admin's own and those shared with all
 * admins; 'Save view' keeps the current list under a name, private or shared.
 */
export function SavedViews({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  const toasts = useToasts();
  const location = useLocation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [open, setOpen] = useState(false);
  const views = useQuery({
    queryKey: viewsKey(entity),
    queryFn: async () => (await http.get<{ data: SavedView[] }>('/views', { query: { entity: entity.name } })).data,
  });
  const save = useMutation({
    mutationFn: () => http.post('/views', { entity: entity.name, name, query: viewQuery(location.search), shared }),
    onSuccess: async () => {
      toasts.success(t('dataio.views.saved', { name: name.trim() }));
      setName('');
      setShared(false);
      setOpen(false);
      await client.invalidateQueries({ queryKey: viewsKey(entity) });
    },
    onError: (error) => toasts.error(t('dataio.views.save_failed', { message: describeError(error, t) })),
  });
  const remove = useMutation({
    mutationFn: (id: number) => http.delete(`/views/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: viewsKey(entity) }),
  });
  const current = viewQuery(location.search);

  return (
    <Flex gap="2" align="center" wrap="wrap" mb="3" aria-label={t('dataio.views.title')} role="navigation">
      <Text size="2" color="gray">
        {t('dataio.views.title')}:
      </Text>
      {(views.data ?? []).length === 0 && (
        <Text size="2" color="gray">
          {t('dataio.views.none')}
        </Text>
      )}
      {(views.data ?? []).map((view) => (
        <Flex key={view.id} align="center" gap="1">
          <Link asChild size="2" weight={view.query === current ? 'bold' : 'regular'}>
            <RouterLink to={`${location.pathname}${view.query ? `?${view.query}` : ''}`}>{view.name}</RouterLink>
          </Link>
          {view.shared && (
            <Badge size="1" color="blue">
              {t('dataio.views.shared_badge')}
            </Badge>
          )}
          {view.mine && (
            <IconButton size="1" variant="ghost" color="gray" aria-label={t('dataio.views.delete', { name: view.name })} onClick={() => remove.mutate(view.id)}>
              <Cross2Icon aria-hidden />
            </IconButton>
          )}
        </Flex>
      ))}
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger>
          <Button size="1" variant="soft">
            <BookmarkIcon aria-hidden />
            {t('dataio.views.save')}
          </Button>
        </Popover.Trigger>
        <Popover.Content size="2" style={{ width: 300 }}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim()) save.mutate();
            }}
          >
            <Flex direction="column" gap="2">
              <Text as="label" size="2" weight="medium" htmlFor="saved-view-name">
                {t('dataio.views.name')}
              </Text>
              <TextField.Root id="saved-view-name" value={name} maxLength={100} onChange={(event) => setName(event.currentTarget.value)} />
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Checkbox checked={shared} onCheckedChange={(value) => setShared(value === true)} />
                  {t('dataio.views.share')}
                </Flex>
              </Text>
              <Button type="submit" disabled={!name.trim() || save.isPending}>
                {t('dataio.views.save_button')}
              </Button>
            </Flex>
          </form>
        </Popover.Content>
      </Popover.Root>
    </Flex>
  );
}
