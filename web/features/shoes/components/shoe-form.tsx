import { useId, useState, type FormEvent } from 'react';
import { DEFAULT_SHOE_LIMIT_KM, type Shoe, type ShoeUpdateBody } from '../../../../core/shoes.js';
import { distanceFromInput, distanceInputValue, type Units } from '../../../../core/units.js';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import type { FieldErrors } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import shoesTexts from 'virtual:i18n/shoes';
import { useT } from '../../../i18n/runtime';

interface ShoeFormProps {
  /** The shoe being changed; a new one when absent. */
  shoe?: Shoe;
  units: Units;
  pending?: boolean;
  serverErrors?: FieldErrors;
  submitLabel: string;
  onSubmit: (input: ShoeUpdateBody) => void;
  onCancel?: () => void;
}

/**
 * Name, brand, distance limit and the distance run before it was tracked here (both in the
 * runner's unit, sent back as stored while unchanged, as a run's distance) and whether it is the
 * default shoe.
 */
export function ShoeForm({ shoe, units, pending, serverErrors = {}, submitLabel, onSubmit, onCancel }: ShoeFormProps) {
  const t = useT(shoesTexts);
  const display = useDisplay();
  const storedLimit = shoe?.limit_km ?? DEFAULT_SHOE_LIMIT_KM;
  const storedStart = shoe?.start_km ?? 0;
  const [name, setName] = useState(shoe?.name ?? '');
  const [brand, setBrand] = useState(shoe?.brand ?? '');
  const [limit, setLimit] = useState(distanceInputValue(storedLimit, units));
  const [start, setStart] = useState(distanceInputValue(storedStart, units));
  const [isDefault, setIsDefault] = useState(shoe?.is_default ?? false);
  const checks = useFormErrors({
    values: { name, brand, limit, start },
    validate: (typed) => {
      const limitKm = distanceFromInput(typed.limit, units, storedLimit);
      const startKm = typed.start.trim() === '' ? 0 : distanceFromInput(typed.start, units, storedStart);
      return check({
        name: [!typed.name.trim() && t('shoes.form.nameRequired')],
        limit_km: [!(limitKm !== null && limitKm > 0) && t('shoes.form.limitInvalid')],
        start_km: [startKm === null && t('shoes.form.beforeInvalid')],
      });
    },
    serverErrors,
    sources: { limit_km: ['limit'], start_km: ['start'] },
  });
  const errors = checks.errors;
  const unit = display.labels.distance;
  const defaultId = useId();
  const errorsId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const limitKm = distanceFromInput(limit, units, storedLimit);
    const startKm = start.trim() === '' ? 0 : distanceFromInput(start, units, storedStart);
    if (!checks.submit() || limitKm === null || startKm === null) return;
    onSubmit({
      name: name.trim(),
      brand: brand.trim() || null,
      limit_km: limitKm,
      start_km: startKm,
      // A retired shoe is never the default: the form does not offer it.
      ...(shoe?.retired ? {} : { is_default: isDefault }),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="row g-2">
        <div className="col-sm-4">
          <FormField
            label={t('shoes.form.name')}
            name="name"
            required
            maxLength={100}
            value={name}
            onValueChange={setName}
            errors={errors.name}
          />
        </div>
        <div className="col-sm-4">
          <FormField
            label={t('shoes.form.brand')}
            name="brand"
            maxLength={100}
            value={brand}
            onValueChange={setBrand}
            errors={errors.brand}
          />
        </div>
        <div className="col-sm-4">
          <FormField
            label={t('shoes.form.limit', { unit })}
            name="limit_km"
            inputMode="decimal"
            autoComplete="off"
            value={limit}
            onValueChange={setLimit}
            errors={errors.limit_km}
          />
        </div>
        <div className="col-sm-8">
          <FormField
            label={t('shoes.form.before', { unit })}
            name="start_km"
            inputMode="decimal"
            autoComplete="off"
            value={start}
            onValueChange={setStart}
            errors={errors.start_km}
            hint={t('shoes.form.beforeHint')}
          />
        </div>
      </div>
      {shoe?.retired ? null : (
        <div className="form-check mb-3">
          <input
            className="form-check-input"
            type="checkbox"
            id={defaultId}
            checked={isDefault}
            onChange={(event) => setIsDefault(event.target.checked)}
          />
          <label className="form-check-label" htmlFor={defaultId}>
            {t('shoes.form.default')}
          </label>
        </div>
      )}
      <FieldErrorList id={errorsId} errors={errors.shoe ?? errors.is_default} />
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('shoes.form.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
