import { Box, Button, Card, Flex, Grid, Heading, IconButton, Text, TextArea, TextField } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { type ReactElement, useRef, useState } from 'react';
import { useTranslation } from '../../../engine/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
import {
  CRITERION_GUIDANCE_MAX,
  CRITERION_KEY_MAX,
  CRITERION_LABEL_MAX,
  type CriterionDraft,
  type CriterionField,
  criteriaProblems,
  criterionKeyFrom,
  weightShares,
  weightSum,
} from '../shared/criteria-rules.js';

/** What the form engine shares with widgets (see the engine's EntityForm). */
interface FormContext {
  submitted?: boolean;
  serverErrors?: readonly FieldError[];
}

let nextRowId = 0;
const newRowId = () => `criterion-${++nextRowId}`;

/**
 * RJSF widget `criteria-editor` for an exam's `criteria`: one card per criterion with its label,
 * key, weight, maximum and guidance; add, remove, move up and move down with buttons that name the
 * criterion; the weights' sum and each criterion's share (weights are relative, they need not sum to
 * 100); the key derived from the label until it is edited by hand (its rule in a hint); each row's
 * problems under its fields once the row was touched or the form submitted, and the server's too
 * (the list's own errors, as 'criteria locked', show under the field as any field's do).
 */
export function CriteriaEditorWidget(props: WidgetProps): ReactElement {
  const { id, value, onChange, disabled, readonly } = props;
  const { t } = useTranslation();
  const rows: CriterionDraft[] = Array.isArray(value) ? (value as CriterionDraft[]) : [];
  const context = (props.registry.formContext ?? {}) as FormContext;
  const locked = Boolean(disabled || readonly);
  // Stable row identities (React keys) and which rows were touched / had their key typed by hand.
  const ids = useRef<string[]>([]);
  while (ids.current.length < rows.length) ids.current.push(newRowId());
  if (ids.current.length > rows.length) ids.current.length = rows.length;
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  // A stored key that is not the one its label gives was typed by hand: a new label keeps it.
  const [keyTyped, setKeyTyped] = useState<Set<string>>(
    () => new Set(ids.current.filter((_, i) => Boolean(rows[i]?.key) && rows[i]?.key !== criterionKeyFrom(rows[i]?.label ?? ''))),
  );

  const problems = criteriaProblems(rows);
  const shares = weightShares(rows);
  const sum = weightSum(rows);
  const fieldName = props.name || 'criteria';
  const serverError = (i: number, field: CriterionField) => context.serverErrors?.find((e) => e.path === `${fieldName}.${i}.${field}`);

  const emit = (next: CriterionDraft[]) => onChange(next);
  const touch = (rowId: string) => setTouched((s) => (s.has(rowId) ? s : new Set(s).add(rowId)));
  const update = (i: number, patch: Partial<CriterionDraft>) => {
    const rowId = ids.current[i]!;
    touch(rowId);
    const next = rows.map((row, j) => (j === i ? { ...row, ...patch } : row));
    if ('label' in patch && !keyTyped.has(rowId)) next[i] = { ...next[i], key: criterionKeyFrom(patch.label ?? '') };
    emit(next);
  };
  const move = (i: number, to: number) => {
    const next = [...rows];
    const [row] = next.splice(i, 1);
    next.splice(to, 0, row!);
    const [rowId] = ids.current.splice(i, 1);
    ids.current.splice(to, 0, rowId!);
    emit(next);
  };
  const remove = (i: number) => {
    ids.current.splice(i, 1);
    emit(rows.filter((_, j) => j !== i));
  };
  const add = () => {
    ids.current.push(newRowId());
    emit([...rows, { label: '', key: '', weight: 1, maximum: 10 }]);
  };
  const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const name = (row: CriterionDraft, i: number) => row.label?.trim() || t('judging.criteria.untitled', { n: i + 1 });

  return (
    <Flex direction="column" gap="3" id={id}>
      {rows.length === 0 && (
        <Text size="2" color="gray">
          {t('judging.criteria.empty')}
        </Text>
      )}
      {rows.map((row, i) => {
        const rowId = ids.current[i]!;
        const show = touched.has(rowId) || Boolean(context.submitted);
        const message = (field: CriterionField) => {
          const own = show ? problems[i]?.[field] : undefined;
          if (own) return t(own.messageKey, own.params);
          const server = serverError(i, field);
          return server ? t(server.messageKey, server.params) : undefined;
        };
        const input = (field: CriterionField) => `${id}_${i}_${field}`;
        const described = (field: CriterionField, extra?: string) =>
          [message(field) ? `${input(field)}__error` : '', extra ?? ''].join(' ').trim() || undefined;
        const error = (field: CriterionField) =>
          message(field) ? (
            <Text id={`${input(field)}__error`} size="1" color="red" role="alert">
              {message(field)}
            </Text>
          ) : null;
        const label = name(row, i);
        return (
          <Card key={rowId} asChild size="2">
            <fieldset aria-label={t('judging.criteria.row', { n: i + 1, label })}>
              <Flex justify="between" align="center" gap="2" mb="2" wrap="wrap">
                <Heading as="h3" size="2">
                  {t('judging.criteria.row', { n: i + 1, label })}
                </Heading>
                {!locked && (
                  <Flex gap="1">
                    <IconButton
                      type="button"
                      variant="soft"
                      size="1"
                      disabled={i === 0}
                      aria-label={t('judging.criteria.move_up', { label })}
                      onClick={() => move(i, i - 1)}
                    >
                      ↑
                    </IconButton>
                    <IconButton
                      type="button"
                      variant="soft"
                      size="1"
                      disabled={i === rows.length - 1}
                      aria-label={t('judging.criteria.move_down', { label })}
                      onClick={() => move(i, i + 1)}
                    >
                      ↓
                    </IconButton>
                    <IconButton
                      type="button"
                      variant="soft"
                      color="red"
                      size="1"
                      aria-label={t('judging.criteria.remove', { label })}
                      onClick={() => remove(i)}
                    >
                      ✕
                    </IconButton>
                  </Flex>
                )}
              </Flex>
              <Grid columns={{ initial: '1', sm: '2fr 1fr' }} gap="3">
                <Box>
                  <Text as="label" htmlFor={input('label')} size="2" weight="medium">
                    {t('judging.criteria.label')}
                  </Text>
                  <TextField.Root
                    id={input('label')}
                    value={row.label ?? ''}
                    maxLength={CRITERION_LABEL_MAX}
                    disabled={locked}
                    aria-invalid={message('label') ? true : undefined}
                    aria-describedby={described('label')}
                    onChange={(e) => update(i, { label: e.target.value })}
                    onBlur={() => touch(rowId)}
                  />
                  {error('label')}
                </Box>
                <Box>
                  <Text as="label" htmlFor={input('key')} size="2" weight="medium">
                    {t('judging.criteria.key')}
                  </Text>
                  <TextField.Root
                    id={input('key')}
                    value={row.key ?? ''}
                    maxLength={CRITERION_KEY_MAX}
                    disabled={locked}
                    spellCheck={false}
                    aria-invalid={message('key') ? true : undefined}
                    aria-describedby={described('key', `${input('key')}__hint`)}
                    onChange={(e) => {
                      setKeyTyped((s) => new Set(s).add(rowId));
                      update(i, { key: e.target.value });
                    }}
                    onBlur={() => touch(rowId)}
                  />
                  <Text as="div" id={`${input('key')}__hint`} size="1" color="gray">
                    {t('judging.criteria.key_hint')}
                  </Text>
                  {error('key')}
                </Box>
                <Box>
                  <Text as="label" htmlFor={input('weight')} size="2" weight="medium">
                    {t('judging.criteria.weight')}
                  </Text>
                  <TextField.Root
                    id={input('weight')}
                    type="number"
                    inputMode="decimal"
                    min={0}
                    max={100}
                    step="any"
                    value={row.weight ?? ''}
                    disabled={locked}
                    aria-invalid={message('weight') ? true : undefined}
                    aria-describedby={described('weight', `${input('weight')}__share`)}
                    onChange={(e) => update(i, { weight: numberOf(e.target.value) })}
                    onBlur={() => touch(rowId)}
                  />
                  <Text as="div" id={`${input('weight')}__share`} size="1" color="gray">
                    {t('judging.criteria.share', { share: shares[i] ?? 0 })}
                  </Text>
                  {error('weight')}
                </Box>
                <Box>
                  <Text as="label" htmlFor={input('maximum')} size="2" weight="medium">
                    {t('judging.criteria.maximum')}
                  </Text>
                  <TextField.Root
                    id={input('maximum')}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={1000}
                    step={1}
                    value={row.maximum ?? ''}
                    disabled={locked}
                    aria-invalid={message('maximum') ? true : undefined}
                    aria-describedby={described('maximum')}
                    onChange={(e) => update(i, { maximum: numberOf(e.target.value) })}
                    onBlur={() => touch(rowId)}
                  />
                  {error('maximum')}
                </Box>
              </Grid>
              <Box mt="3">
                <Text as="label" htmlFor={input('guidance')} size="2" weight="medium">
                  {t('judging.criteria.guidance')}
                </Text>
                <TextArea
                  id={input('guidance')}
                  value={row.guidance ?? ''}
                  rows={2}
                  maxLength={CRITERION_GUIDANCE_MAX}
                  disabled={locked}
                  placeholder={t('judging.criteria.guidance_placeholder')}
                  aria-invalid={message('guidance') ? true : undefined}
                  aria-describedby={described('guidance')}
                  onChange={(e) => update(i, { guidance: e.target.value === '' ? undefined : e.target.value })}
                  onBlur={() => touch(rowId)}
                />
                {error('guidance')}
              </Box>
            </fieldset>
          </Card>
        );
      })}
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        {!locked && (
          <Button type="button" variant="soft" onClick={add}>
            {t('judging.criteria.add')}
          </Button>
        )}
        <Box>
          <Text as="div" size="2" weight="medium" aria-live="polite">
            {t('judging.criteria.weights_sum', { sum })}
          </Text>
          <Text as="div" size="1" color="gray">
            {t('judging.criteria.weights_hint')}
          </Text>
        </Box>
      </Flex>
    </Flex>
  );
}
