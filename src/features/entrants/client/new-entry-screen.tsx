import { Button, Callout, Card, Flex, Select, Text } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeError, ErrorState, FormField, formatDateTime, LoadingState, ScreenHeader, usePageTitle, useTranslation } from '../../../engine/index.js';
import { entrantsApi, entryChoicesOptions, invalidateEntries } from './queries.js';

/**
 * `/entries/new` (entrants): choose an edition taking entries and a category, then the draft is
 * made and its form opens. Says plainly when no edition takes entries, or when the submittor's
 * limit is reached (the server's 409s say the same).
 */
export default function NewEntryScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  usePageTitle('entrants.new.title');
  const navigate = useNavigate();
  const client = useQueryClient();
  const choices = useQuery(entryChoicesOptions());
  const [edition, setEdition] = useState<string>('');
  const [category, setCategory] = useState<string>('');
  const create = useMutation({
    mutationFn: () => entrantsApi.create({ edition_id: Number(edition || choices.data?.editions[0]?.id), category_id: Number(category) }),
    onSuccess: async (entry) => {
      await invalidateEntries(client);
      void navigate(`/entries/${entry.id}`);
    },
  });
  const header = (
    <ScreenHeader trail={[{ label: t('entrants.list.title'), url: '/entries' }, { label: t('entrants.new.title') }]} heading={t('entrants.new.title')} />
  );
  if (choices.isPending)
    return (
      <>
        {header}
        <LoadingState />
      </>
    );
  if (choices.isError)
    return (
      <>
        {header}
        <ErrorState message={describeError(choices.error, t)} back={{ to: '/entries', label: t('entrants.list.back') }} />
      </>
    );
  const { editions, categories, max_entries: max, used } = choices.data;
  const chosenEdition = edition || (editions[0] ? String(editions[0].id) : '');
  const closed = editions.length === 0;
  const full = !closed && used >= max;
  return (
    <>
      {header}
      <Card style={{ maxWidth: 640 }}>
        <Flex direction="column" gap="4">
          {closed && (
            <Callout.Root color="amber" role="status">
              <Callout.Text>{t('entrants.new.closed')}</Callout.Text>
            </Callout.Root>
          )}
          {full && (
            <Callout.Root color="amber" role="status">
              <Callout.Text>{t('entrants.new.full', { max })}</Callout.Text>
            </Callout.Root>
          )}
          {!closed && !full && (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (chosenEdition && category) create.mutate();
              }}
            >
              <Flex direction="column" gap="4">
                <Text size="2" color="gray">
                  {t('entrants.new.quota', { used, max })}
                </Text>
                <FormField id="entry-edition" label={t('entrants.new.edition')}>
                  <Select.Root value={chosenEdition} onValueChange={setEdition}>
                    <Select.Trigger id="entry-edition" aria-label={t('entrants.new.edition')} />
                    <Select.Content>
                      {editions.map((option) => (
                        <Select.Item key={option.id} value={String(option.id)}>
                          {option.closes_at
                            ? t('entrants.new.editionCloses', { name: option.name, date: formatDateTime(option.closes_at, i18n.language) })
                            : option.name}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </FormField>
                <FormField id="entry-category" label={t('entrants.new.category')}>
                  <Select.Root value={category} onValueChange={setCategory}>
                    <Select.Trigger id="entry-category" aria-label={t('entrants.new.category')} placeholder={t('entrants.new.categoryPlaceholder')} />
                    <Select.Content>
                      {categories.map((option) => (
                        <Select.Item key={option.id} value={String(option.id)}>
                          {option.name}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </FormField>
                {create.isError && (
                  <Callout.Root color="red" role="alert">
                    <Callout.Text>{describeError(create.error, t)}</Callout.Text>
                  </Callout.Root>
                )}
                <Flex gap="3" justify="end">
                  <Button asChild variant="soft" color="gray">
                    <Link to="/entries">{t('common.cancel')}</Link>
                  </Button>
                  <Button type="submit" disabled={!category || create.isPending}>
                    {t('entrants.new.start')}
                  </Button>
                </Flex>
              </Flex>
            </form>
          )}
        </Flex>
      </Card>
    </>
  );
}
