import { ArrowLeftIcon, Pencil1Icon, TrashIcon } from '@radix-ui/react-icons';
import { Button, Card, DataList, Flex, Heading, Tabs, Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ClientEntity, DetailSection } from '../../shared/descriptor/types.js';
import { FieldValue, isEmptyValue } from '../cells/index.js';
import { entityText, entityTextKeys, entityTextValues, fieldLabel, recordTitle } from '../data/entity-labels.js';
import type { EntityRecord } from '../data/entity-queries.js';
import { useTranslation } from '../i18n/use-translation.js';
import { RecordStateView } from '../ui/record-state-view.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { NoticeState } from '../ui/screen-states.js';
import { RecordHistory } from './record-history.js';
import { useDetailController } from './use-detail-controller.js';

/** One titled card of label/value pairs; empty values say 'Not provided'. */
function SectionCard(props: { entity: ClientEntity; section: DetailSection; record: EntityRecord }): ReactElement {
  const { entity, section, record } = props;
  const { t } = useTranslation();
  const headingId = `${entity.name}-section-${section.title.replace(/[^\w-]/g, '-')}`;
  return (
    <Card size="2" asChild>
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="3" mb="3" id={headingId}>
          {t(section.title)}
        </Heading>
        <DataList.Root orientation={{ initial: 'vertical', sm: 'horizontal' }} size="2">
          {section.fields.map((display) => (
            <DataList.Item key={`${display.field}-${display.relation ?? ''}`}>
              <DataList.Label minWidth="160px">{fieldLabel(entity, display, t)}</DataList.Label>
              <DataList.Value>
                <FieldValue record={record} display={display} place="detail" emptyKey={entity.detail.empty} />
              </DataList.Value>
            </DataList.Item>
          ))}
        </DataList.Root>
      </section>
    </Card>
  );
}

/** A not-found title with its explanation under it. */
function NotFoundText({ title, hint }: { title: string; hint: string }): ReactElement {
  return (
    <Flex direction="column" gap="1" align="center" asChild>
      <span>
        <Text weight="medium">{title}</Text>
        <Text size="2">{hint}</Text>
      </span>
    </Flex>
  );
}

/**
 * The generic detail screen, a view of {@link useDetailController}: breadcrumbs (Dashboard ›
 * Manage Company › Acme), the record's title with Back, Edit and Delete as permitted, and the
 * descriptor's sections. States: 'Invalid company ID' (no request), spinner, 'Company not found.',
 * 'Error loading company: …'. A Details tab and a History tab (the record's audit rows,
 * {@link RecordHistory}).
 */
export function EntityDetail({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  usePageTitle(entityTextKeys(entity, 'detailTitle'), entityTextValues(entity, t));
  const detail = useDetailController(entity);
  const { paths, record } = detail;
  const back = { to: paths.list, label: entityText(entity, 'backToList', t) };
  const trail = [
    { label: entityText(entity, 'title', t), url: paths.list },
    { label: record ? recordTitle(entity, record) : entityText(entity, 'detailTitle', t) },
  ];

  let body: ReactElement;
  if (detail.status !== 'ready' || !record) {
    // An entity may explain further under the title ('The requested record with ID 7 was not found.')
    // and word its way back differently ('Record Not Found' offers 'Back to List').
    const hint = t(`entities.${entity.name}.not_found_hint`, { id: detail.id, defaultValue: '' });
    const notFoundBack = { ...back, label: t(`entities.${entity.name}.not_found_back`, { defaultValue: back.label }) };
    const notFound = (
      <NoticeState
        message={hint ? <NotFoundText title={entityText(entity, 'notFound', t)} hint={hint} /> : entityText(entity, 'notFound', t)}
        back={notFoundBack}
      />
    );
    body = <RecordStateView entity={entity} state={detail} back={back} notFound={notFound} />;
  } else
    body = (
      <Tabs.Root defaultValue="details">
        <Tabs.List mb="4">
          <Tabs.Trigger value="details">{t('history.details_tab')}</Tabs.Trigger>
          <Tabs.Trigger value="history">{t('history.tab')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="details">
          <Flex direction="column" gap="4">
            {entity.detail.sections
              .filter((section) => !section.showIf || !isEmptyValue(record[section.showIf]))
              .map((section) => (
                <SectionCard key={section.title} entity={entity} section={section} record={record} />
              ))}
          </Flex>
        </Tabs.Content>
        <Tabs.Content value="history">
          <RecordHistory entity={entity} id={record.id} />
        </Tabs.Content>
      </Tabs.Root>
    );

  const actions = record && (
    <>
      <Button asChild variant="soft" color="gray">
        <RouterLink to={paths.list}>
          <ArrowLeftIcon aria-hidden />
          {entityText(entity, 'backToList', t)}
        </RouterLink>
      </Button>
      {entity.detail.links.map((link) => (
        <Button key={link.to} asChild variant="soft">
          <RouterLink to={link.to.replace(':id', String(record.id))}>{t(link.label)}</RouterLink>
        </Button>
      ))}
      {detail.canEdit && (
        <Button asChild>
          <RouterLink to={paths.edit(record.id)}>
            <Pencil1Icon aria-hidden />
            {t([`entities.${entity.name}.edit_button`, 'common.edit'])}
          </RouterLink>
        </Button>
      )}
      {detail.canDelete && (
        <Button color="red" variant="soft" disabled={detail.deleting} onClick={detail.remove}>
          <TrashIcon aria-hidden />
          {t('common.delete')}
        </Button>
      )}
    </>
  );

  return (
    <>
      <ScreenHeader trail={trail} heading={record ? recordTitle(entity, record) : entityText(entity, 'detailTitle', t)} actions={actions} />
      {record ? body : <Card size="3">{body}</Card>}
    </>
  );
}
