import { Badge, Button, Card, DataList, Flex, Link, Select, Text, TextArea } from '@radix-ui/themes';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactElement, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  describeError,
  ErrorState,
  entityRecordOptions,
  entityText,
  findEntity,
  LoadingState,
  queryKeys,
  ScreenHeader,
  useDialogs,
  useMetaEntities,
  usePageTitle,
  useRecordQuery,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import type { ClientEntity } from '../../../shared/descriptor/types.js';
import { judgingApi } from './queries.js';

/** A failed write's text: its field errors by key in the user's language, else the error's code. */
function errorText(error: unknown, t: TFunction): string {
  const fields = (error as { errors?: Array<{ messageKey?: string; params?: Record<string, unknown> }> }).errors ?? [];
  const texts = fields.filter((e) => e.messageKey).map((e) => t(e.messageKey!, e.params ?? {}));
  return texts.length > 0 ? texts.join(' ') : describeError(error, t);
}

interface Applicant {
  id: number;
  name: string;
  email: string;
  company: string | null;
  country: string;
  status: 'applied' | 'approved' | 'rejected';
  rejection_reason: string | null;
  jury_id: number | null;
  /** Ids of the categories the applicant knows. */
  expertise?: number[] | null;
}

/** The categories an applicant knows, by name (each read through the engine's record query, so cached). */
function Expertise({ ids }: { ids: readonly number[] }): ReactElement {
  const { t } = useTranslation();
  const meta = useMetaEntities();
  const category = findEntity(meta.data, 'category');
  const names = useQueries({
    queries: ids.map((id) => ({ ...entityRecordOptions(category!, id), enabled: Boolean(category) })),
  });
  if (ids.length === 0) return <Text color="gray">{t('judging.applicants.no_expertise')}</Text>;
  return (
    <Flex gap="1" wrap="wrap">
      {ids.map((id, i) => {
        const name = names[i]?.data?.name;
        return (
          <Badge key={id} color="blue" variant="soft">
            {typeof name === 'string' ? name : `#${id}`}
          </Badge>
        );
      })}
    </Flex>
  );
}

const STATUS_COLORS = { applied: 'amber', approved: 'green', rejected: 'red' } as const;

/**
 * `/manage-applicant/:id/decide`: a jury applicant's decision. Approve (for the round
 * chosen) creates the juror and the juror's account, and mails its invitation; reject needs a
 * reason. Each asks for a confirm; the server checks the role and audits both. A decided
 * application shows its outcome.
 */
export default function ApplicantDecisionScreen(): ReactElement {
  const { t } = useTranslation();
  usePageTitle('judging.applicant.title');
  const meta = useMetaEntities();
  const entity = findEntity(meta.data, 'applicant');
  const back = { to: '/manage-applicant', label: t('nav.applicants') };
  if (meta.isError) return <ErrorState message={t('judging.applicant.load_error', { message: describeError(meta.error, t) })} back={back} />;
  if (!entity)
    return meta.isPending ? <LoadingState /> : <ErrorState message={t('judging.applicant.load_error', { message: t('errors.codes.forbidden') })} back={back} />;
  return <ApplicantDecision entity={entity} back={back} />;
}

/** The decision on the applicant of the route's `:id`, read through the engine's record query (the detail screen's cache). */
function ApplicantDecision({ entity, back }: { entity: ClientEntity; back: { to: string; label: string } }): ReactElement {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const toasts = useToasts();
  const client = useQueryClient();
  const [round, setRound] = useState('1');
  const record = useRecordQuery(entity);
  if (record.status === 'loading') return <LoadingState />;
  if (record.status !== 'ready' || !record.record) {
    const message = record.error ? describeError(record.error, t) : entityText(entity, 'notFound', t);
    return <ErrorState message={t('judging.applicant.load_error', { message })} back={back} />;
  }
  const applicant = record.record as unknown as Applicant;
  const id = applicant.id;

  const decided = async (message: string) => {
    toasts.success(message);
    await client.invalidateQueries({ queryKey: queryKeys.entity(entity.name) });
    // The generic list and detail screens of applicants, juries and accounts show the new rows.
    void client.invalidateQueries();
  };
  const approve = () =>
    dialogs.confirm({
      title: t('judging.actions.approve_title'),
      description: t('judging.actions.approve_confirm', { round }),
      onConfirm: async () => {
        try {
          await judgingApi.approveApplicant(id, Number(round));
        } catch (error) {
          toasts.error(errorText(error, t));
          throw error;
        }
        await decided(t('judging.applicant.approved_invited', { email: applicant.email }));
      },
    });
  const reject = () => {
    let reason = '';
    return dialogs.confirm({
      title: t('judging.actions.reject_title'),
      description: (
        <label>
          <Text as="div" size="2" mb="1">
            {t('judging.actions.reject_reason')}
          </Text>
          <TextArea aria-label={t('judging.actions.reject_reason')} autoFocus minLength={3} maxLength={500} onChange={(e) => (reason = e.target.value)} />
          <Text as="div" size="1" color="gray">
            {t('results.reasonHelp')}
          </Text>
        </label>
      ),
      confirmText: t('judging.actions.reject'),
      onConfirm: async () => {
        try {
          await judgingApi.rejectApplicant(id, reason);
        } catch (error) {
          toasts.error(errorText(error, t));
          throw error;
        }
        await decided(t('judging.applicants.rejected_told'));
      },
    });
  };

  const trail = [
    { label: t('nav.applicants'), url: '/manage-applicant' },
    { label: applicant.name, url: `/manage-applicant/${id}` },
    { label: t('judging.applicant.title') },
  ];
  return (
    <>
      <ScreenHeader trail={trail} heading={t('judging.applicant.heading', { name: applicant.name })} />
      <Card size="2">
        <Flex direction="column" gap="4">
          <DataList.Root>
            <DataList.Item>
              <DataList.Label>{t('entities.applicant.fields.email')}</DataList.Label>
              <DataList.Value>{applicant.email}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>{t('entities.applicant.fields.company')}</DataList.Label>
              <DataList.Value>{applicant.company ?? t('common.not_provided')}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>{t('judging.applicants.country')}</DataList.Label>
              <DataList.Value>
                {t([`entities.applicant.enum.country.${applicant.country}`, `entities.jury.countries.${applicant.country}`], {
                  defaultValue: applicant.country,
                })}
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>{t('judging.applicants.expertise')}</DataList.Label>
              <DataList.Value>
                <Expertise ids={applicant.expertise ?? []} />
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>{t('entities.applicant.fields.status')}</DataList.Label>
              <DataList.Value>
                <Badge color={STATUS_COLORS[applicant.status]}>{t(`entities.applicant.enum.status.${applicant.status}`)}</Badge>
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
          {applicant.status === 'applied' && (
            <Flex gap="3" align="end" wrap="wrap">
              <label>
                <Text as="div" size="2">
                  {t('judging.applicant.round')}
                </Text>
                <Select.Root value={round} onValueChange={setRound}>
                  <Select.Trigger aria-label={t('judging.applicant.round')} />
                  <Select.Content>
                    <Select.Item value="1">{t('entities.jury.rounds.1')}</Select.Item>
                    <Select.Item value="2">{t('entities.jury.rounds.2')}</Select.Item>
                  </Select.Content>
                </Select.Root>
              </label>
              <Button color="green" onClick={() => void approve()}>
                {t('judging.actions.approve')}
              </Button>
              <Button color="red" variant="soft" onClick={() => void reject()}>
                {t('judging.actions.reject')}
              </Button>
            </Flex>
          )}
          {applicant.status === 'approved' && (
            <Text role="status">
              {t('judging.applicant.approved_state')}{' '}
              {applicant.jury_id && (
                <Link asChild>
                  <RouterLink to={`/manage-jury/${applicant.jury_id}`}>{t('judging.applicant.view_juror')}</RouterLink>
                </Link>
              )}
            </Text>
          )}
          {applicant.status === 'rejected' && <Text role="status">{t('judging.applicant.rejected_state', { reason: applicant.rejection_reason ?? '' })}</Text>}
        </Flex>
      </Card>
    </>
  );
}
