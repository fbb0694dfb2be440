import { useId, useState, type FormEvent } from 'react';
import { requiredMessage } from '../../../../core/messages.js';
import { DEFAULT_SHOE_LIMIT_KM, type Shoe, type ShoeUpdateBody } from '../../../../core/shoes.js';
import { unitLabels, type Units } from '../../../../core/units.js';
import { check, hasErrors, mergeErrors } from '../../../components/form/form-errors';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import type { FieldErrors } from '../../../lib/api-client';
import { limitForForm, limitFromForm } from './shoe-format';

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

/** Name, brand, distance limit (in the runner's unit) and whether it is the default shoe. */
export function ShoeForm({ shoe, units, pending, serverErrors = {}, submitLabel, onSubmit, onCancel }: ShoeFormProps) {
  const [name, setName] = useState(shoe?.name ?? '');
  const [brand, setBrand] = useState(shoe?.brand ?? '');
  const [limit, setLimit] = useState(limitForForm(shoe?.limit_km ?? DEFAULT_SHOE_LIMIT_KM, units));
  const [isDefault, setIsDefault] = useState(shoe?.is_default ?? false);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const errors = mergeErrors(clientErrors, serverErrors);
  const unit = unitLabels(units).distance;
  const defaultId = useId();
  const errorsId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const limitKm = limitFromForm(limit, units);
    const failed = check({
      name: [!name.trim() && requiredMessage('name')],
      limit_km: [!(limitKm > 0) && 'The limit must be a number greater than 0.'],
    });
    setClientErrors(failed);
    if (hasErrors(failed)) return;
    onSubmit({
      name: name.trim(),
      brand: brand.trim() || null,
      limit_km: limitKm,
      // A retired shoe is never the default: the form does not offer it.
      ...(shoe?.retired ? {} : { is_default: isDefault }),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="row g-2">
        <div className="col-sm-4">
          <FormField
            label="Name"
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
            label="Brand"
            name="brand"
            maxLength={100}
            value={brand}
            onValueChange={setBrand}
            errors={errors.brand}
          />
        </div>
        <div className="col-sm-4">
          <FormField
            label={`Limit (${unit})`}
            name="limit_km"
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={limit}
            onValueChange={setLimit}
            errors={errors.limit_km}
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
            Default shoe for new runs
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
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
