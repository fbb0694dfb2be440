import { useId } from 'react';
import entries from 'virtual:i18n/entries';
import { MAX_NOTES_LENGTH, MAX_TITLE_LENGTH, RUN_KINDS, type Entry, type EntryBody } from '../../../../core/schemas.js';
import type { Shoe } from '../../../../core/shoes.js';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import { useT } from '../../../i18n/runtime';
import type { FieldErrors } from '../../../lib/api-client';

/** A shoe as the entry form offers it (the screen passes the runner's shoes in). */
export type ShoeChoice = Pick<Shoe, 'id' | 'name' | 'retired' | 'is_default'>;

/** §8's optional fields as the form holds them: text, '' when unset. */
export interface EntryExtrasValues {
  title: string;
  notes: string;
  kind: string;
  effort: string;
  shoeId: string;
}

export const EMPTY_EXTRAS: EntryExtrasValues = { title: '', notes: '', kind: '', effort: '', shoeId: '' };

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export function extrasOf(
  entry: Partial<Pick<Entry, 'title' | 'notes' | 'kind' | 'effort' | 'shoe_id'>>,
): EntryExtrasValues {
  return {
    title: text(entry.title),
    notes: text(entry.notes),
    kind: text(entry.kind),
    effort: text(entry.effort),
    shoeId: text(entry.shoe_id),
  };
}

/** A new run starts with the default shoe when there is one. */
export function defaultShoeId(shoes: readonly ShoeChoice[] | undefined): string {
  return text(shoes?.find((shoe) => shoe.is_default && !shoe.retired)?.id);
}

/**
 * Only what the runner changed is sent: an untouched field stays as stored (absent = unchanged),
 * a cleared one is null.
 */
export function changedExtras(initial: EntryExtrasValues, values: EntryExtrasValues): Partial<EntryBody> {
  const body: Partial<EntryBody> = {};
  const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
  if (values.title !== initial.title) body.title = orNull(values.title);
  if (values.notes !== initial.notes) body.notes = orNull(values.notes);
  if (values.kind !== initial.kind) body.kind = (orNull(values.kind) as EntryBody['kind']) ?? null;
  if (values.effort !== initial.effort) body.effort = values.effort ? Number(values.effort) : null;
  if (values.shoeId !== initial.shoeId) body.shoe_id = values.shoeId ? Number(values.shoeId) : null;
  return body;
}

/** A run's kind in the language: `t(KIND_KEYS[kind])`, with `useT(entries)` called. */
export const KIND_KEYS: Record<(typeof RUN_KINDS)[number], string> = {
  easy: 'entries.kind.easy',
  long: 'entries.kind.long',
  workout: 'entries.kind.workout',
  race: 'entries.kind.race',
};

const EFFORTS = Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

interface FieldsProps {
  values: EntryExtrasValues;
  set: (field: keyof EntryExtrasValues) => (value: string) => void;
  errors: FieldErrors;
}

/**
 * The shoe select: shoes in use, and the run's own shoe even once retired (a run keeps it).
 * Not shown to a runner without shoes.
 */
export function ShoeSelect({
  shoes,
  keptShoeId,
  values,
  set,
  errors,
}: FieldsProps & { shoes: readonly ShoeChoice[]; keptShoeId: string }) {
  const t = useT(entries);
  const offered = shoes.filter((shoe) => !shoe.retired || String(shoe.id) === keptShoeId);
  if (offered.length === 0) return null;
  return (
    <FormField
      label={t('entries.extras.shoe')}
      name="shoe_id"
      value={values.shoeId}
      onValueChange={set('shoeId')}
      errors={errors.shoe_id}
      options={[
        { value: '', label: t('entries.extras.noShoe') },
        ...offered.map((shoe) => ({
          value: String(shoe.id),
          label: shoe.retired ? t('entries.extras.retiredShoe', { name: shoe.name }) : shoe.name,
          ...(shoe.retired ? {} : { translate: 'no' as const }),
        })),
      ]}
    />
  );
}

const EXTRA_FIELDS = ['title', 'notes', 'kind', 'effort'] as const;

/** Title, notes, kind and effort, folded under "More": open when the run has one of them, or one has an error. */
export function MoreFields({ values, set, errors, openAtFirst }: FieldsProps & { openAtFirst: boolean }) {
  const t = useT(entries);
  const notesId = useId();
  const notesErrorId = `${notesId}-error`;
  const withErrors = EXTRA_FIELDS.some((field) => (errors[field]?.length ?? 0) > 0);
  return (
    <details className="mb-3" open={withErrors || openAtFirst || undefined}>
      <summary className="mb-2">{t('entries.extras.more')}</summary>
      <FormField
        label={t('entries.extras.title')}
        name="title"
        maxLength={MAX_TITLE_LENGTH}
        value={values.title}
        onValueChange={set('title')}
        errors={errors.title}
      />
      <div className="mb-3">
        <label htmlFor={notesId} className="form-label">
          {t('entries.extras.notes')}
        </label>
        <textarea
          id={notesId}
          name="notes"
          rows={3}
          maxLength={MAX_NOTES_LENGTH}
          className={`form-control${errors.notes?.length ? ' is-invalid' : ''}`}
          aria-invalid={errors.notes?.length ? true : undefined}
          aria-describedby={errors.notes?.length ? notesErrorId : undefined}
          value={values.notes}
          onChange={(event) => set('notes')(event.target.value)}
        />
        <FieldErrorList id={notesErrorId} errors={errors.notes} />
      </div>
      <div className="row g-3 entry-form-pair">
        <div className="col-sm-6">
          <FormField
            label={t('entries.extras.kind')}
            name="kind"
            value={values.kind}
            onValueChange={set('kind')}
            errors={errors.kind}
            options={[
              { value: '', label: t('entries.extras.kindNotSet') },
              ...RUN_KINDS.map((kind) => ({ value: kind, label: t(KIND_KEYS[kind]) })),
            ]}
          />
        </div>
        <div className="col-sm-6">
          <FormField
            label={t('entries.extras.effort')}
            name="effort"
            value={values.effort}
            onValueChange={set('effort')}
            errors={errors.effort}
            options={[{ value: '', label: t('entries.extras.effortNotRated') }, ...EFFORTS]}
          />
        </div>
      </div>
    </details>
  );
}
