import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EntityForm } from '../../src/engine/form/entity-form.js';
import { fromZonedInput, toZonedInput, zoneLabel } from '../../src/engine/widgets/zoned-time.js';
import { CriteriaTableCell } from '../../src/features/judging/client/criteria-table-cell.js';
import { criteriaProblems, criterionKeyFrom, weightShares } from '../../src/features/judging/shared/criteria-rules.js';
import { judgingNames } from '../../src/features/judging/shared/extension-names.js';
import { mergeExtensionNames, SHIPPED_NAMES } from '../../src/shared/descriptor/extension-names.js';
import { type ClientEntity, loadEntities, toClientEntity } from '../../src/shared/descriptor/index.js';
import { renderWidget } from '../helpers/widgets-render.js';
import { entitySources, FakeApi, renderWithApp } from './entity-harness.js';

/**
 * The real exam descriptor's forms (with its category and edition), checked against the engine's and
 * judging's names, the date fields pinned to Asia/Jakarta; its detail page is not this test's.
 */
function examEntity(): ClientEntity {
  const sources = entitySources(['exam', 'category', 'edition'], (source) => {
    if (source.descriptor.name !== 'exam') return;
    delete source.descriptor.detail;
    for (const mode of ['create', 'edit'] as const) {
      for (const field of ['opens_at', 'closes_at']) source.descriptor.forms[mode].uiSchema[field]['ui:options'] = { timeZone: 'Asia/Jakarta' };
    }
  });
  const names = mergeExtensionNames(SHIPPED_NAMES, judgingNames);
  return loadEntities(sources, { names })
    .map((entity) => toClientEntity(entity, 'admin'))
    .find((entity) => entity.name === 'exam')!;
}

const START = { name: 'Best Film — Round 1', category_id: 1, round: 1, max_score: 100 };

function renderExamForm(language: 'en' | 'ms' | 'id' = 'en', initialData: Record<string, unknown> = START) {
  const exam = examEntity();
  const onSubmit = vi.fn();
  const view = renderWithApp(
    <EntityForm entity={exam} mode="create" initialData={initialData} saving={false} onSubmit={onSubmit} onCancel={() => undefined} />,
    { api: new FakeApi([exam]), language },
  );
  return { onSubmit, view };
}

const rowOf = (name: string | RegExp) => screen.getByRole('group', { name });

describe('criteria rules', () => {
  it('derives keys from labels and checks every row', () => {
    expect(criterionKeyFrom('Creative Idea')).toBe('creative_idea');
    expect(criterionKeyFrom('Idea & Insight (2025)')).toBe('idea_insight_2025');
    expect(criterionKeyFrom('Kesan Ke-2 — Média')).toBe('kesan_ke_2_media');
    expect(criterionKeyFrom('2nd round')).toBe('c_2nd_round');
    expect(criterionKeyFrom('!!!')).toBe('');
    expect(weightShares([{ weight: 3 }, { weight: 1 }])).toEqual([75, 25]);
    const problems = criteriaProblems([
      { label: 'Idea', key: 'idea', weight: 1, maximum: 10 },
      { label: '', key: 'idea', weight: 0, maximum: 2.5 },
      { label: 'X', key: 'Bad key', weight: 101 },
    ]);
    expect(problems[0]).toEqual({});
    expect(Object.fromEntries(Object.entries(problems[1]!).map(([f, p]) => [f, p!.messageKey]))).toEqual({
      label: 'judging.criteria.errors.label_required',
      key: 'judging.criteria.errors.key_unique',
      weight: 'judging.criteria.errors.weight_range',
      maximum: 'judging.criteria.errors.maximum_range',
    });
    expect(problems[2]!.key!.messageKey).toBe('judging.criteria.errors.key_pattern');
    expect(problems[2]!.maximum!.messageKey).toBe('judging.criteria.errors.maximum_required');
  });
});

describe('criteria editor on the exam form', { timeout: 30_000 }, () => {
  it('adds, names, reorders and removes criteria with labelled buttons, shows the weights and sends the criteria', async () => {
    const { onSubmit, view } = renderExamForm();
    const { user } = await view;
    expect(await screen.findByText('No criteria yet: add the first one.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.type(within(rowOf(/^1\. /)).getByLabelText('Label'), 'Creative Idea');
    // The key follows the label until it is typed by hand; its rule is explained beside it.
    expect((within(rowOf('1. Creative Idea')).getByLabelText('Key') as HTMLInputElement).value).toBe('creative_idea');
    expect(within(rowOf('1. Creative Idea')).getByText(/lower-case letters, digits and _, starting with a letter/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    const second = rowOf(/^2\. /);
    await user.type(within(second).getByLabelText('Label'), 'Results & Impact');
    const weight = within(rowOf('2. Results & Impact')).getByLabelText('Weight');
    await user.clear(weight);
    await user.type(weight, '3');
    await user.type(within(rowOf('2. Results & Impact')).getByLabelText('Guidance for jurors'), 'Evidence of business results.');
    expect(screen.getByText('Sum of weights: 4')).toBeTruthy();
    expect(screen.getByText(/need not add up to 100/)).toBeTruthy();
    expect(within(rowOf('1. Creative Idea')).getByText('25% of the total')).toBeTruthy();
    expect(within(rowOf('2. Results & Impact')).getByText('75% of the total')).toBeTruthy();

    // Buttons name the criterion; the first cannot move up, the last cannot move down.
    expect((screen.getByRole('button', { name: 'Move Creative Idea up' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move Results & Impact down' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Move Results & Impact up' }));
    expect(screen.getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual(['1. Results & Impact', '2. Creative Idea']);

    // A key typed by hand is kept, and a bad one is explained under it.
    const key = within(rowOf('2. Creative Idea')).getByLabelText('Key');
    await user.clear(key);
    await user.type(key, 'Idea!');
    expect(within(rowOf('2. Creative Idea')).getByRole('alert').textContent).toBe('Use lower-case letters, digits and _, starting with a letter.');
    await user.clear(key);
    await user.type(key, 'idea');
    await user.type(within(rowOf('2. Creative Idea')).getByLabelText('Label'), ' 2');
    expect((within(rowOf('2. Creative Idea 2')).getByLabelText('Key') as HTMLInputElement).value).toBe('idea');
    expect(within(rowOf('2. Creative Idea 2')).queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Create Examination' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].criteria).toEqual([
      { label: 'Results & Impact', key: 'results_impact', weight: 3, maximum: 10, guidance: 'Evidence of business results.' },
      { label: 'Creative Idea 2', key: 'idea', weight: 1, maximum: 10 },
    ]);

    await user.click(screen.getByRole('button', { name: 'Remove Creative Idea 2' }));
    expect(screen.getAllByRole('group')).toHaveLength(1);
    expect(screen.getByText('Sum of weights: 3')).toBeTruthy();
  });

  it('shows each row’s problems once the form is submitted, and sends nothing', async () => {
    const { onSubmit, view } = renderExamForm();
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Add criterion' }));
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    // Untouched rows say nothing until the submit.
    expect(screen.queryByText('Enter a label.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create Examination' }));
    await waitFor(() => expect(screen.getAllByText('Enter a label.')).toHaveLength(2));
    expect(within(rowOf('1. Criterion 1')).getByLabelText('Label').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps a stored key that was typed by hand when its label changes, and follows the label otherwise', async () => {
    const criteria = [
      { key: 'idea', label: 'Idea', weight: 1, maximum: 10 },
      { key: 'c_impact', label: 'Impact', weight: 1, maximum: 10 },
    ];
    const { view } = renderExamForm('en', { ...START, criteria });
    const { user } = await view;
    await user.type(within(await screen.findByRole('group', { name: '1. Idea' })).getByLabelText('Label'), 's');
    expect((within(rowOf('1. Ideas')).getByLabelText('Key') as HTMLInputElement).value).toBe('ideas');
    await user.type(within(rowOf('2. Impact')).getByLabelText('Label'), 's');
    expect((within(rowOf('2. Impacts')).getByLabelText('Key') as HTMLInputElement).value).toBe('c_impact');
  });

  it('speaks Malay: buttons, labels, hints and messages', async () => {
    const { view } = renderExamForm('ms');
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Tambah kriteria' }));
    await user.type(within(rowOf(/^1\. /)).getByLabelText('Label'), 'Idea Kreatif');
    expect(screen.getByRole('button', { name: 'Alihkan Idea Kreatif ke atas' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Padam Idea Kreatif' })).toBeTruthy();
    expect(within(rowOf('1. Idea Kreatif')).getByLabelText('Wajaran')).toBeTruthy();
    expect(screen.getByText('Jumlah wajaran: 1')).toBeTruthy();
    expect(screen.getByText(/tidak perlu berjumlah 100/)).toBeTruthy();
    expect(within(rowOf('1. Idea Kreatif')).getByText(/huruf kecil, digit dan _/)).toBeTruthy();
  });
});

describe('date-time fields on the exam form', { timeout: 30_000 }, () => {
  it('takes the opening and closing times in the user’s zone, names the zone, and stores ISO UTC the schema accepts', async () => {
    const { onSubmit, view } = renderExamForm('en', { ...START, closes_at: '2026-12-20T10:00:00.000Z' });
    const { user } = await view;
    const opens = (await screen.findByLabelText(/^Opens/)) as HTMLInputElement;
    const closes = screen.getByLabelText(/^Closes/) as HTMLInputElement;
    expect(opens.type).toBe('datetime-local');
    // A stored instant shows as the wall time in Jakarta (UTC+7), the zone beside it.
    expect(closes.value).toBe('2026-12-20T17:00');
    expect(screen.getAllByText('Asia/Jakarta, UTC+7').length).toBeGreaterThanOrEqual(2);
    fireEvent.change(opens, { target: { value: '2026-12-01T10:00' } });
    await user.click(screen.getByRole('button', { name: 'Create Examination' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ opens_at: '2026-12-01T03:00:00.000Z', closes_at: '2026-12-20T10:00:00.000Z' });
  });

  it('sends no opening time when the field is emptied', async () => {
    const { onSubmit, view } = renderExamForm('en');
    const { user } = await view;
    const opens = (await screen.findByLabelText(/^Opens/)) as HTMLInputElement;
    fireEvent.change(opens, { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Create Examination' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].opens_at ?? null).toBeNull();
  });
});

describe('zoned time', () => {
  it('reads and shows wall time in a named zone, across a daylight-saving change', () => {
    expect(fromZonedInput('2026-12-01T10:00', 'Asia/Jakarta')).toBe('2026-12-01T03:00:00.000Z');
    expect(toZonedInput('2026-12-01T03:00:00.000Z', 'Asia/Jakarta')).toBe('2026-12-01T10:00');
    expect(fromZonedInput('2026-07-01T09:00', 'America/New_York')).toBe('2026-07-01T13:00:00.000Z');
    expect(fromZonedInput('2026-01-15T09:00', 'America/New_York')).toBe('2026-01-15T14:00:00.000Z');
    expect(fromZonedInput('2026-12-01T10', 'Asia/Jakarta')).toBeUndefined();
    expect(zoneLabel('Asia/Kolkata', Date.parse('2026-01-01T00:00:00Z'))).toBe('Asia/Kolkata, UTC+5:30');
    expect(zoneLabel('UTC')).toBe('UTC');
  });
});

describe('criteria-table cell', () => {
  it('shows the criteria as a table on the detail page, labels joined in a list', async () => {
    const criteria = [
      { key: 'idea', label: 'Idea', weight: 3, maximum: 10, guidance: 'Is it new?' },
      { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
    ];
    const view = await renderWidget(<CriteriaTableCell value={criteria} record={{}} display={{ field: 'criteria' } as never} place="detail" />);
    const table = screen.getByRole('table', { name: 'Criteria' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Label', 'Key', 'Weight', 'Maximum score', 'Guidance for jurors']);
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['LabelKeyWeightMaximum scoreGuidance for jurors', 'Ideaidea3 (75% of the total)10Is it new?', 'Craftcraft1 (25% of the total)5']);
    view.unmount();
    await renderWidget(<CriteriaTableCell value={criteria} record={{}} display={{ field: 'criteria' } as never} place="list" />);
    expect(screen.getByText('Idea, Craft')).toBeTruthy();
  });
});
