import {
  EMAIL_PATTERN,
  INVALID_EMAIL_MESSAGE,
  PASSWORD_MISMATCH_MESSAGE,
  requiredMessage,
} from '../../../core/messages.js';
import type { FieldErrors } from '../../lib/api-client';

/**
 * Client-side checks and server errors share one shape, `{field: [messages]}`.
 * Client checks win for a field while they fail; otherwise the server's show.
 */
export function mergeErrors(client: FieldErrors, server: FieldErrors): FieldErrors {
  return { ...server, ...client };
}

/** Collects the messages of failed checks: `check({email: [!value && requiredMessage('email')]})`. */
export function check(rules: Record<string, Array<string | false | null | undefined>>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(rules)) {
    const failed = messages.filter((message): message is string => typeof message === 'string');
    if (failed.length > 0) errors[field] = failed;
  }
  return errors;
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/**
 * The API names a password confirmation that does not match on `password`; the user forms show it
 * under Confirm Password, the field to correct.
 */
export function mismatchUnderConfirmation(errors: FieldErrors): FieldErrors {
  if (!errors.password?.includes(PASSWORD_MISMATCH_MESSAGE)) return errors;
  const { password, ...others } = errors;
  const rest = password.filter((message) => message !== PASSWORD_MISMATCH_MESSAGE);
  return {
    ...others,
    ...(rest.length > 0 ? { password: rest } : {}),
    password_confirmation: [...(errors.password_confirmation ?? []), PASSWORD_MISMATCH_MESSAGE],
  };
}

/** The messages of the user forms' checks: the API's English ones (core/messages.ts) unless a screen gives its catalog's. */
export interface UserFieldMessages {
  required: (field: 'name' | 'email' | 'password') => string;
  invalidEmail: string;
  passwordMismatch: string;
}

const API_MESSAGES: UserFieldMessages = {
  required: requiredMessage,
  invalidEmail: INVALID_EMAIL_MESSAGE,
  passwordMismatch: PASSWORD_MISMATCH_MESSAGE,
};

/**
 * The checks of the user forms (registration, the profile, the admin's user edit), with the API's messages
 * (core/messages.ts) or the screen's; name and email come trimmed. The password is required at registration;
 * elsewhere a blank one means unchanged, and only a confirmation without a match fails (under Confirm Password).
 */
export function checkUserFields(
  values: { name: string; email: string; password: string; password_confirmation: string },
  { passwordRequired }: { passwordRequired: boolean },
  messages: UserFieldMessages = API_MESSAGES,
): FieldErrors {
  const { name, email, password, password_confirmation: confirmation } = values;
  const passwordGiven = passwordRequired ? Boolean(password) : Boolean(password || confirmation);
  return check({
    name: [!name && messages.required('name')],
    email: [
      !email && messages.required('email'),
      Boolean(email) && !EMAIL_PATTERN.test(email) && messages.invalidEmail,
    ],
    password: [passwordRequired && !password && messages.required('password')],
    password_confirmation: [passwordGiven && password !== confirmation && messages.passwordMismatch],
  });
}
