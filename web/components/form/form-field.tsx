import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface Option {
  value: string;
  label: string;
  /** `no` for data among the app's texts (a shoe's name, a language's own name), as on an element. */
  translate?: 'no' | 'yes';
  /** The option's own language, where it is not the page's (a language named in itself). */
  lang?: string;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'children'>;

export interface FormFieldProps extends InputProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  /** Messages for this field: the server's `errors[field]` or a client-side check. */
  errors?: readonly string[] | undefined;
  /** Renders a select with these options instead of an input. */
  options?: readonly Option[];
  hint?: ReactNode;
  className?: string;
  /** Marks the field invalid for errors shown elsewhere (e.g. under a group of fields). */
  invalid?: boolean;
  /** The id of that message, added to aria-describedby. */
  describedBy?: string | undefined;
  /** A button (or text) joined to the input's end, e.g. "Today". */
  addon?: ReactNode;
}

/**
 * The one form field of the app: a bound label, an input (or select), an
 * optional hint, and the field's error messages wired with aria-invalid and
 * aria-describedby.
 */
export function FormField({
  label,
  value,
  onValueChange,
  errors,
  options,
  hint,
  className = 'mb-3',
  invalid: invalidOverride,
  describedBy: extraDescription,
  addon,
  ...inputProps
}: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hasOwnErrors = Boolean(errors && errors.length > 0);
  const invalid = invalidOverride ?? hasOwnErrors;
  const describedBy =
    [hint ? hintId : null, hasOwnErrors ? errorId : null, extraDescription].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  };

  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {options ? (
        <select
          {...common}
          className={`form-select${invalid ? ' is-invalid' : ''}`}
          value={value}
          required={inputProps.required}
          disabled={inputProps.disabled}
          name={inputProps.name}
          translate={inputProps.translate}
          onChange={(event) => onValueChange(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value} translate={option.translate} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <InputGroup addon={addon}>
          <input
            {...inputProps}
            {...common}
            className={`form-control${invalid ? ' is-invalid' : ''}`}
            value={value}
            onChange={(event) => onValueChange(event.target.value)}
          />
        </InputGroup>
      )}
      {hint ? (
        <div id={hintId} className="form-text">
          {hint}
        </div>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/** An input alone, or joined to its addon. */
function InputGroup({ addon, children }: { addon: ReactNode; children: ReactNode }) {
  return addon ? (
    <div className="input-group">
      {children}
      {addon}
    </div>
  ) : (
    children
  );
}

/** The error list under a field (or a group of fields). */
export function FieldErrors({ id, errors }: { id: string; errors?: readonly string[] | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {errors.map((message) => (
        <div key={message}>{message}</div>
      ))}
    </div>
  );
}
