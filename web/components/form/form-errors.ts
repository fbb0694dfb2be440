import type { FieldErrors } from '../../lib/api-client';

/**
 * Client-side checks and server errors share one shape, `{field: [messages]}`.
 * Client checks win for a field while they fail; otherwise the server's show.
 */
export function mergeErrors(client: FieldErrors, server: FieldErrors): FieldErrors {
  return { ...server, ...client };
}

/** Collects the messages of failed checks: `check({email: [!value && 'The email field is required.']})`. */
export function check(rules: Record<string, Array<string | false | null | undefined>>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(rules)) {
    const failed = messages.filter((message): message is string => typeof message === 'string');
    if (failed.length > 0) errors[field] = failed;
  }
  return errors;
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
