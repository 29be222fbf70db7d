import { Button, Callout, Card, DataList, Flex, Heading, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  describeError,
  EntityForm,
  ErrorState,
  formatDateTime,
  LoadingState,
  ScreenHeader,
  useDialogs,
  usePageTitle,
  useToasts,
  useTranslation,
  useUnsavedChangesGuard,
} from '../../../engine/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
import type { ClientEntity } from '../../../shared/descriptor/types.js';
import { ENTRY_ENTITY, type MyEntry, type PortalForm } from '../index.js';
import { entrantKeys, entrantsApi, invalidateEntries, myEntryOptions, portalFormOptions } from './queries.js';
import { EntryStatus } from './status-badge.js';

/** How long typing pauses before a draft is saved. */
const AUTOSAVE_MS = 1200;

/** `pending`: a change waits for the pause before its save; 'saved' only once nothing waits or is on its way. */
type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

/**
 * The portal form as the engine's RJSF form takes it: an entity whose edit form is the descriptor's
 * portal form (its widgets, labels `entities.contest.fields.*`, the server's body schema and
 * messages), so the entrant's form validates as the server does, in the reader's language.
 */
function portalEntity(form: PortalForm): ClientEntity {
  const config = { fields: form.fields, uiSchema: form.uiSchema, defaults: {} };
  return {
    name: ENTRY_ENTITY,
    label: 'entry',
    texts: { submitUpdate: 'entrants.entry.saveDraft', submitCreate: 'entrants.entry.saveDraft' },
    forms: { create: config, edit: config },
    createSchema: form.schema,
    updateSchema: form.schema,
    jsonSchema: form.schema,
    messages: form.messages,
    comparisons: [],
  } as unknown as ClientEntity;
}

/** `/entries/:id` (entrants): a draft's form, saved as it is typed, then submitted; a submitted or closed entry read-only, with its awards once published. */
export default function EntryScreen(): ReactElement {
  const { t } = useTranslation();
  const { id: raw } = useParams();
  const id = Number(raw);
  usePageTitle('entrants.entry.title', { id: raw });
  const entry = useQuery({ ...myEntryOptions(id), enabled: Number.isInteger(id) && id > 0 });
  const form = useQuery(portalFormOptions());
  const trail = [{ label: t('entrants.list.title'), url: '/entries' }, { label: t('entrants.entry.name', { id: raw }) }];
  if (entry.isError || form.isError || !(Number.isInteger(id) && id > 0)) {
    return (
      <>
        <ScreenHeader trail={trail} heading={t('entrants.entry.name', { id: raw })} />
        <ErrorState
          message={describeError(entry.error ?? form.error, t, t('entrants.entry.notFound'))}
          back={{ to: '/entries', label: t('entrants.list.back') }}
        />
      </>
    );
  }
  if (entry.isPending || form.isPending) return <LoadingState label={t('entrants.entry.loading')} />;
  return <Entry entry={entry.data} form={form.data} />;
}

function Entry({ entry, form }: { entry: MyEntry; form: PortalForm }): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <>
      <ScreenHeader
        trail={[{ label: t('entrants.list.title'), url: '/entries' }, { label: t('entrants.entry.name', { id: entry.id }) }]}
        heading={t('entrants.entry.name', { id: entry.id })}
        subheading={
          <Flex gap="2" align="center" wrap="wrap" asChild>
            <span>
              <EntryStatus status={entry.status} />
              <Text size="2" color="gray">
                {[entry.edition_name, entry.category_name].filter(Boolean).join(' · ')}
              </Text>
              {entry.closes_at && (
                <Text size="2" color="gray">
                  {t('entrants.entry.closes', { date: formatDateTime(entry.closes_at, i18n.language) })}
                </Text>
              )}
            </span>
          </Flex>
        }
      />
      {entry.editable ? <DraftForm key={entry.id} entry={entry} form={form} /> : <ReadOnlyEntry entry={entry} form={form} />}
    </>
  );
}

function DraftForm({ entry, form }: { entry: MyEntry; form: PortalForm }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const entity = useMemo(() => portalEntity(form), [form]);
  // The form keeps its own values once open (the screen keys it by entry): a save never resets what is being typed.
  const [initialData] = useState(() => Object.fromEntries(Object.entries(entry.values).filter(([, value]) => value !== null && value !== undefined)));
  const [state, setState] = useState<SaveState>('idle');
  const [serverErrors, setServerErrors] = useState<readonly FieldError[]>([]);
  const [failure, setFailure] = useState('');
  const pending = useRef<Record<string, unknown> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const save = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    const body = pending.current;
    if (!body) return true;
    pending.current = null;
    setState('saving');
    try {
      const saved = await entrantsApi.update(entry.id, body);
      client.setQueryData(entrantKeys.one(entry.id), saved);
      setServerErrors([]);
      // A change made while this save was on its way (an upload finishing, say) is not saved yet.
      setState(pending.current ? 'pending' : 'saved');
      return true;
    } catch (error) {
      if (!pending.current) pending.current = body;
      setServerErrors(error instanceof ApiError ? (error.errors ?? []) : []);
      setFailure(describeError(error, t));
      setState('failed');
      return false;
    }
  }, [client, entry.id, t]);

  useEffect(() => () => clearTimeout(timer.current), []);
  // Leaving (a link, a reload, closing the tab) with a change not saved yet asks first.
  const allowLeave = useUnsavedChangesGuard(state === 'pending' || state === 'saving' || state === 'failed');

  const onChange = useCallback(
    (body: Record<string, unknown>) => {
      pending.current = body;
      setState((current) => (current === 'saving' ? current : 'pending'));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), AUTOSAVE_MS);
    },
    [save],
  );

  const submit = () =>
    dialogs.confirm({
      title: t('entrants.entry.submitTitle'),
      description: t('entrants.entry.submitConfirm'),
      confirmText: t('entrants.entry.submit'),
      onConfirm: async () => {
        if (!(await save())) throw new Error('not saved');
        try {
          await entrantsApi.submit(entry.id);
        } catch (error) {
          setServerErrors(error instanceof ApiError ? (error.errors ?? []) : []);
          toasts.error(describeError(error, t));
          throw error;
        }
        await invalidateEntries(client);
        toasts.success(t('entrants.entry.submitted'));
      },
    });

  return (
    <Card>
      <Flex justify="between" align="center" mb="3" wrap="wrap" gap="2">
        <Text size="2" color={state === 'failed' ? 'red' : 'gray'} role="status" aria-live="polite" data-testid="autosave-state">
          {state === 'saving' || state === 'pending'
            ? t('entrants.entry.saving')
            : state === 'saved'
              ? t('entrants.entry.saved')
              : state === 'failed'
                ? t('entrants.entry.notSaved', { reason: failure })
                : t('entrants.entry.draftHint')}
        </Text>
        <Button type="button" onClick={() => void submit()}>
          {t('entrants.entry.submit')}
        </Button>
      </Flex>
      <EntityForm
        entity={entity}
        mode="edit"
        initialData={initialData}
        serverErrors={serverErrors}
        saving={false}
        onChange={onChange}
        onSubmit={(body) => {
          pending.current = body;
          void save().then((ok) => ok && toasts.success(t('entrants.entry.saved')));
        }}
        onCancel={() =>
          void save().then((ok) => {
            if (!ok) return;
            allowLeave();
            void navigate('/entries');
          })
        }
        onUnplacedErrors={(messages) => toasts.error(messages.join(' '))}
      />
    </Card>
  );
}

function ReadOnlyEntry({ entry, form }: { entry: MyEntry; form: PortalForm }): ReactElement {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4">
      {entry.status === 'draft' && (
        <Callout.Root color="amber" role="status">
          <Callout.Text>{t('entrants.entry.closedDraft')}</Callout.Text>
        </Callout.Root>
      )}
      {entry.awards.length > 0 && (
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t('entrants.entry.awards')}
          </Heading>
          <Flex direction="column" gap="1">
            {entry.awards.map((award) => (
              <Text key={`${award.award}-${award.category}`} data-testid="entry-award">
                {award.category ? `${award.award} · ${award.category}` : award.award}
              </Text>
            ))}
          </Flex>
        </Card>
      )}
      <Card>
        <Heading as="h2" size="3" mb="2" id="entry-remarks">
          {t('entrants.entry.remarks')}
        </Heading>
        {entry.remarks.length === 0 ? (
          <Text as="p" size="2" color="gray" data-testid="entry-remarks-empty">
            {t('entrants.entry.remarksEmpty')}
          </Text>
        ) : (
          <Flex asChild direction="column" gap="3" m="0" p="0" style={{ listStyle: 'none' }}>
            <ul aria-labelledby="entry-remarks">
              {entry.remarks.map((remark, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: remarks carry no id (they are anonymous) and two may read alike; the position is their identity
                <li key={index} data-testid="entry-remark">
                  <Text as="p" size="1" color="gray">
                    {t('entrants.entry.remarkFrom', { exam: remark.exam, round: t('entrants.entry.round', { round: remark.round }) })}
                  </Text>
                  <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
                    {remark.remark}
                  </Text>
                </li>
              ))}
            </ul>
          </Flex>
        )}
      </Card>
      <Card>
        <DataList.Root>
          {form.fields.map((field) => (
            <DataList.Item key={field}>
              <DataList.Label minWidth="180px">{t(`entities.contest.fields.${field}`, { defaultValue: field.replace(/_/g, ' ') })}</DataList.Label>
              <DataList.Value>
                <Text style={{ whiteSpace: 'pre-wrap' }}>
                  {entry.values[field] === null || entry.values[field] === undefined ? '—' : String(entry.values[field])}
                </Text>
              </DataList.Value>
            </DataList.Item>
          ))}
        </DataList.Root>
      </Card>
    </Flex>
  );
}
