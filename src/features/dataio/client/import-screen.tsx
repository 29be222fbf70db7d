import { DownloadIcon, UploadIcon } from '@radix-ui/react-icons';
import { Badge, Box, Button, Callout, Card, Flex, Heading, Progress, RadioGroup, Select, Table, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ApiError,
  describeError,
  entityTextValues,
  fieldLabel,
  LoadingState,
  queryKeys,
  ScreenHeader,
  saveFile,
  useMetaEntities,
  usePageTitle,
  useTranslation,
} from '../../../engine/index.js';
import type { ClientEntity } from '../../../shared/descriptor/types.js';
import { formatBytes, formatNumber } from '../../../shared/format.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../shared/import-limits.js';
import { dataioApi, type Fixes, importJobOptions, importJobsOptions, type Job, type Preview, type PreviewRow, setImportJob, type Upload } from './queries.js';

const SKIP = '__skip';

/** The message of a failed request: the first field error's key translated, else the error itself. */
function errorText(error: unknown, t: ReturnType<typeof useTranslation>['t']): string {
  if (error instanceof ApiError) {
    const first = error.errors?.[0];
    if (first?.messageKey.startsWith('dataio.')) return t(first.messageKey, { ...first.params });
    if (error.status === 413) return t('dataio.import.errors.too_large', { limit: '50 MB' });
  }
  return describeError(error, t);
}

/**
 * The name of a kind of record, as the import offers it ('Jurors', 'Jury applicants'): the
 * entity's plural label when translated, else the import's own name for it, else its label.
 */
function entityTypeLabel(entity: ClientEntity, t: ReturnType<typeof useTranslation>['t']): string {
  return t([`entities.${entity.name}.label_plural`, `dataio.import.entities.${entity.name}`], { defaultValue: entityTextValues(entity, t).labelPlural });
}

/** A running or finished job: progress (rows, rate, time left), cancel, the outcome and its report. */
function JobPanel({ job, onCancel, onReport }: { job: Job; onCancel(): void; onReport(): void }): ReactElement {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const percent = job.total_rows > 0 ? Math.round((job.done_rows / job.total_rows) * 100) : 0;
  return (
    <Card size="2" aria-label={t('dataio.import.progress_title')}>
      <Flex direction="column" gap="3">
        <Heading as="h2" size="3">
          {t('dataio.import.progress_title')} · {job.filename}
        </Heading>
        {job.status === 'running' && (
          <>
            <Progress value={percent} aria-label={t('dataio.import.progress_title')} />
            <Text size="2" role="status">
              {t(`dataio.import.phase.${job.phase ?? 'reading'}`, { done: n(job.done_rows), total: n(job.total_rows) })}
              {job.rate ? ` · ${t('dataio.import.rate', { rate: n(job.rate) })}` : ''}
              {job.seconds_left != null ? ` · ${t('dataio.import.time_left', { seconds: job.seconds_left })}` : ''}
            </Text>
            <Box>
              <Button variant="soft" color="red" onClick={onCancel}>
                {t('dataio.import.cancel')}
              </Button>
            </Box>
          </>
        )}
        {job.status === 'done' && (
          <Callout.Root color={job.failed_rows > 0 ? 'amber' : 'green'} role="status">
            <Callout.Text>{t('dataio.import.done', { created: n(job.created_rows), updated: n(job.updated_rows), failed: n(job.failed_rows) })}</Callout.Text>
          </Callout.Root>
        )}
        {(job.status === 'failed' || job.status === 'cancelled') && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{job.error?.includes('.') ? t(job.error) : t(`dataio.import.errors.${job.error ?? 'cancelled'}`)}</Callout.Text>
          </Callout.Root>
        )}
        {job.has_report && job.status !== 'running' && (
          <Box>
            <Button variant="soft" onClick={onReport}>
              <DownloadIcon aria-hidden />
              {t('dataio.import.report_download')}
            </Button>
          </Box>
        )}
      </Flex>
    </Card>
  );
}

/**
 * The import wizard (`/import-data`), generic over every entity whose descriptor has
 * an `import` block: pick the kind of record and a CSV or XLSX file (or download a sample), map
 * the columns to fields (guessed by the server), check every row with the forms' validator and
 * correct invalid cells in place, then run the import on the server and follow its progress. The
 * job goes on if the browser closes; coming back shows it again.
 */
export function ImportScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  usePageTitle('dataio.import.title');
  const meta = useMetaEntities();
  const importable = useMemo(() => (meta.data ?? []).filter((e) => e.import && e.permissions.create), [meta.data]);
  const [entityName, setEntityName] = useState<string>('');
  const entity: ClientEntity | undefined = importable.find((e) => e.name === entityName) ?? importable[0];
  const [upload, setUpload] = useState<Upload | null>(null);
  const [mapping, setMapping] = useState<Array<string | null>>([]);
  const [fixes, setFixes] = useState<Fixes>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mode, setMode] = useState<'all' | 'valid'>('all');
  const client = useQueryClient();
  // The job shown: read again every second while it runs (importJobOptions), from any tab.
  const [jobId, setJobId] = useState<number | null>(null);
  const jobQuery = useQuery({ ...importJobOptions(jobId ?? 0), enabled: jobId !== null });
  const job: Job | null = jobId === null ? null : (jobQuery.data ?? null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const label = useCallback((field: string) => (entity ? fieldLabel(entity, { field }, t) : field), [entity, t]);
  const fail = (error: unknown) => setProblem(errorText(error, t));
  const showJob = (next: Job) => {
    setImportJob(client, next);
    setJobId(next.id);
  };

  // A cell fixed in the preview is checked again as soon as the typing pauses (the latest check).
  const [recheck, setRecheck] = useState(0);
  const checkRef = useRef<() => Promise<void>>(async () => undefined);
  useEffect(() => {
    if (recheck === 0) return;
    const timer = setTimeout(() => void checkRef.current(), 400);
    return () => clearTimeout(timer);
  }, [recheck]);

  // A job of this entity still running (the browser was closed) is shown again.
  useEffect(() => {
    if (!entity) return;
    let live = true;
    client
      .fetchQuery(importJobsOptions(entity.name))
      .then((jobs) => {
        const running = jobs.find((j) => j.status === 'running');
        if (live && running) {
          setImportJob(client, running);
          setJobId(running.id);
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [entity, client]);

  // Once a job has written rows, the entity's lists and records show them.
  const finished = job !== null && job.status !== 'running' && job.status !== 'uploaded';
  const shownEntity = entity?.name;
  useEffect(() => {
    if (finished && shownEntity) void client.invalidateQueries({ queryKey: queryKeys.entity(shownEntity) });
  }, [finished, shownEntity, client]);

  if (meta.isPending) return <LoadingState />;

  const reset = () => {
    setUpload(null);
    setPreview(null);
    setFixes({});
    setJobId(null);
    setProblem(null);
  };

  const onFile = async (file: File | undefined) => {
    if (!file || !entity) return;
    reset();
    setBusy(true);
    try {
      const stored = await dataioApi.upload(entity.name, file);
      setUpload(stored);
      setMapping(stored.mapping);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const check = async (nextFixes: Fixes = fixes) => {
    if (!upload) return;
    setBusy(true);
    setProblem(null);
    try {
      setPreview(await dataioApi.preview(upload.id, mapping, nextFixes));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  checkRef.current = () => check();

  const start = async () => {
    if (!upload) return;
    setBusy(true);
    setProblem(null);
    try {
      showJob(await dataioApi.start(upload.id, mapping, fixes, mode));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const sample = async () => {
    if (!entity) return;
    try {
      const file = await dataioApi.sample(entity.name, i18n.language?.slice(0, 2));
      saveFile(file.blob, file.filename ?? `${entity.endpoint}-sample.csv`);
    } catch (error) {
      fail(error);
    }
  };

  const report = async () => {
    if (!job) return;
    try {
      const file = await dataioApi.report(job.id, i18n.language?.slice(0, 2));
      saveFile(file.blob, file.filename ?? `import-${job.id}-report.csv`);
    } catch (error) {
      fail(error);
    }
  };

  const cancel = async () => {
    if (!job) return;
    try {
      showJob(await dataioApi.cancel(job.id));
    } catch (error) {
      fail(error);
    }
  };

  const mapped = mapping.map((field, column) => ({ field, column })).filter((m): m is { field: string; column: number } => m.field !== null);
  const cellValue = (row: PreviewRow, field: string, column: number) => fixes[String(row.row)]?.[field] ?? row.values[column] ?? '';
  const setFix = (row: number, field: string, value: string) => {
    setFixes((current) => ({ ...current, [String(row)]: { ...current[String(row)], [field]: value } }));
    setRecheck((n) => n + 1);
  };

  return (
    <Flex direction="column" gap="4">
      <ScreenHeader trail={[{ label: t('dataio.import.title') }]} heading={t('dataio.import.title')} subheading={t('dataio.import.intro')} />
      {importable.length === 0 ? (
        <Text>{t('dataio.import.nothing')}</Text>
      ) : (
        <Card size="2">
          <Flex gap="4" align="end" wrap="wrap">
            <Flex direction="column" gap="1">
              <Text as="label" size="2" weight="medium" htmlFor="import-entity">
                {t('dataio.import.entity')}
              </Text>
              <Select.Root
                value={entity?.name}
                onValueChange={(value) => {
                  setEntityName(value);
                  reset();
                }}
              >
                <Select.Trigger id="import-entity" aria-label={t('dataio.import.entity')} />
                <Select.Content>
                  {importable.map((e) => (
                    <Select.Item key={e.name} value={e.name}>
                      {entityTypeLabel(e, t)}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" size="2" weight="medium" htmlFor="import-file">
                {t('dataio.import.file')}
              </Text>
              <input
                id="import-file"
                type="file"
                accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                disabled={busy}
                onChange={(event) => void onFile(event.currentTarget.files?.[0])}
              />
              <Text size="1" color="gray">
                {t('dataio.import.limits', { size: formatBytes(MAX_IMPORT_BYTES, i18n.language), rows: MAX_IMPORT_ROWS })}
              </Text>
            </Flex>
            <Button variant="ghost" onClick={() => void sample()}>
              <DownloadIcon aria-hidden />
              {t('dataio.import.sample')}
            </Button>
          </Flex>
        </Card>
      )}

      {problem && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{problem}</Callout.Text>
        </Callout.Root>
      )}

      {upload && entity && !job && (
        <Card size="2">
          <Flex direction="column" gap="3">
            <Heading as="h2" size="3">
              {t('dataio.import.mapping_title', { count: upload.total_rows, file: upload.filename })}
            </Heading>
            <Table.Root size="1">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>{t('dataio.import.column')}</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>{t('dataio.import.field')}</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {upload.headers.map((header, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the file's column number is the row's identity (headers may repeat or be blank) and the mapping is indexed by it
                  <Table.Row key={column}>
                    <Table.Cell>{header}</Table.Cell>
                    <Table.Cell>
                      <Select.Root
                        value={mapping[column] ?? SKIP}
                        onValueChange={(value) => {
                          const next = mapping.map((field) => (field === value ? null : field));
                          next[column] = value === SKIP ? null : value;
                          setMapping(next);
                          setPreview(null);
                        }}
                      >
                        <Select.Trigger aria-label={t('dataio.import.field_for', { column: header })} />
                        <Select.Content>
                          <Select.Item value={SKIP}>{t('dataio.import.skip')}</Select.Item>
                          {entity.import!.fields.map((field) => (
                            <Select.Item key={field} value={field}>
                              {label(field)}
                            </Select.Item>
                          ))}
                        </Select.Content>
                      </Select.Root>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
            <Box>
              <Button onClick={() => void check()} disabled={busy || mapped.length === 0}>
                {preview ? t('dataio.import.check_again') : t('dataio.import.check')}
              </Button>
            </Box>
          </Flex>
        </Card>
      )}

      {preview && upload && entity && !job && (
        <Card size="2">
          <Flex direction="column" gap="3">
            <Heading as="h2" size="3">
              {t('dataio.import.preview_title')}
            </Heading>
            <Text size="2" role="status">
              {t('dataio.import.summary', { total: preview.total_rows, invalid: preview.invalid_rows, updates: preview.update_rows })}
            </Text>
            <Box style={{ overflowX: 'auto' }}>
              <Table.Root size="1" aria-label={t('dataio.import.preview_title')}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>{t('dataio.import.row')}</Table.ColumnHeaderCell>
                    {mapped.map(({ field }) => (
                      <Table.ColumnHeaderCell key={field}>{label(field)}</Table.ColumnHeaderCell>
                    ))}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {preview.rows.map((row) => (
                    <Table.Row key={row.row}>
                      <Table.RowHeaderCell>
                        {row.row}
                        {row.update && (
                          <Badge ml="1" color="blue">
                            {t('dataio.import.update')}
                          </Badge>
                        )}
                        {row.errors
                          .filter((error) => error.path === '')
                          .map((error) => (
                            <Text as="div" key={error.keyword} size="1" color="red" role="alert">
                              {t(error.messageKey, { ...error.params })}
                            </Text>
                          ))}
                      </Table.RowHeaderCell>
                      {mapped.map(({ field, column }) => {
                        const errors = row.errors.filter((error) => error.path.split('.')[0] === field);
                        const fixed = fixes[String(row.row)]?.[field] !== undefined;
                        return (
                          <Table.Cell
                            key={field}
                            data-invalid={errors.length > 0 || undefined}
                            style={errors.length > 0 ? { background: 'var(--red-a3)' } : undefined}
                          >
                            {errors.length > 0 || fixed ? (
                              <Flex direction="column" gap="1">
                                <TextField.Root
                                  size="1"
                                  aria-label={t('dataio.import.fix_cell', { row: row.row, field: label(field) })}
                                  aria-invalid={errors.length > 0}
                                  value={cellValue(row, field, column)}
                                  onChange={(event) => setFix(row.row, field, event.currentTarget.value)}
                                />
                                {errors.map((error) => (
                                  <Text key={error.keyword} size="1" color="red">
                                    {t(error.messageKey, { ...error.params })}
                                  </Text>
                                ))}
                              </Flex>
                            ) : (
                              <Text size="2">{row.values[column]}</Text>
                            )}
                          </Table.Cell>
                        );
                      })}
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Box>
            {preview.rows.some((row) => row.errors.some((error) => error.path !== '' && !mapped.some((m) => m.field === error.path.split('.')[0]))) && (
              <Text size="1" color="red">
                {t('dataio.import.unmapped_errors')}
              </Text>
            )}
            <RadioGroup.Root value={mode} onValueChange={(value) => setMode(value as 'all' | 'valid')} aria-label={t('dataio.import.mode')}>
              <RadioGroup.Item value="all">{t('dataio.import.mode_all')}</RadioGroup.Item>
              <RadioGroup.Item value="valid">{t('dataio.import.mode_valid')}</RadioGroup.Item>
            </RadioGroup.Root>
            <Flex gap="2">
              <Button variant="soft" onClick={() => void check()} disabled={busy}>
                {t('dataio.import.check_again')}
              </Button>
              <Button onClick={() => void start()} disabled={busy || (mode === 'all' && preview.invalid_rows > 0)}>
                <UploadIcon aria-hidden />
                {t('dataio.import.start', { count: mode === 'all' ? preview.total_rows : preview.total_rows - preview.invalid_rows })}
              </Button>
            </Flex>
          </Flex>
        </Card>
      )}

      {job && (
        <>
          <JobPanel job={job} onCancel={() => void cancel()} onReport={() => void report()} />
          {job.status !== 'running' && (
            <Box>
              <Button variant="soft" onClick={reset}>
                {t('dataio.import.another')}
              </Button>
            </Box>
          )}
        </>
      )}
    </Flex>
  );
}

export default ImportScreen;
