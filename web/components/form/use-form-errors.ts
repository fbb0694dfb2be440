import { useState } from 'react';
import type { FieldErrors } from '../../lib/api-client';
import { hasErrors, mergeErrors } from './form-errors';

/**
 * The messages under a form's fields, which go as soon as the field is fixed: the client's checks
 * run at a submit and, after a failed one, again on every change; a server message stays only
 * while its field holds what was sent. `values` are the form's fields by name; a server message on
 * a name that is not one of them (e.g. `time` over hours, minutes and seconds) follows the fields
 * `sources` names for it, and stays while they are all unchanged.
 */
export function useFormErrors<V extends object>({
  values,
  validate,
  serverErrors = {},
  sources = {},
}: {
  values: V;
  validate: (values: V) => FieldErrors;
  serverErrors?: FieldErrors | undefined;
  sources?: Record<string, readonly (keyof V)[]>;
}) {
  // The values of the last submit (null before the first, or since `reset`).
  const [sent, setSent] = useState<V | null>(null);
  const failedBefore = sent !== null && hasErrors(validate(sent));
  const client = failedBefore ? validate(values) : {};
  const server = sent === null ? serverErrors : unchangedOnly(serverErrors, values, sent, sources);
  return {
    errors: mergeErrors(client, server),
    /** At a submit: checks the values (and re-checks them on every change if they fail); true when they pass. */
    submit(): boolean {
      setSent(values);
      return !hasErrors(validate(values));
    },
    /** Forgets the last submit: a form that starts over shows no message. */
    reset() {
      setSent(null);
    },
  };
}

/** The server's messages of the fields that still hold what was sent. */
function unchangedOnly<V extends object>(
  errors: FieldErrors,
  values: V,
  sent: V,
  sources: Record<string, readonly (keyof V)[]>,
): FieldErrors {
  const kept: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const keys = sources[field] ?? (field in values ? [field as keyof V] : []);
    if (keys.every((key) => values[key] === sent[key])) kept[field] = messages;
  }
  return kept;
}
