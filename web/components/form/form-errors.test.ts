import { describe, expect, it } from 'vitest';
import {
  DISTANCE_NOT_POSITIVE_MESSAGE,
  EMAIL_PATTERN,
  INVALID_EMAIL_MESSAGE,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MISMATCH_MESSAGE,
  requiredMessage,
  TIME_NOT_POSITIVE_MESSAGE,
} from '../../../core/messages.js';
import { EmailSchema, EntryBodySchema, RegisterBodySchema, validationErrorBody } from '../../../core/schemas.js';

/** The `errors` the API answers for `body`: its first message per field. */
function serverErrors(schema: typeof RegisterBodySchema | typeof EntryBodySchema, body: unknown) {
  const result = schema.safeParse(body);
  return result.success ? {} : validationErrorBody(result.error.issues).errors;
}

const password = 'x'.repeat(PASSWORD_MIN_LENGTH);

describe('the client checks', () => {
  it('give the messages the API gives for a user', () => {
    expect(serverErrors(RegisterBodySchema, {})).toEqual({
      name: [requiredMessage('name')],
      email: [requiredMessage('email')],
      password: [requiredMessage('password')],
    });
    const badEmail = { name: 'Rita', email: 'rita@', password, password_confirmation: password };
    expect(serverErrors(RegisterBodySchema, badEmail)).toEqual({ email: [INVALID_EMAIL_MESSAGE] });
    const mismatch = { name: 'Rita', email: 'rita@example.com', password, password_confirmation: `${password}!` };
    expect(serverErrors(RegisterBodySchema, mismatch)).toEqual({ password: [PASSWORD_MISMATCH_MESSAGE] });
    const short = { name: 'Rita', email: 'rita@example.com', password: password.slice(1), password_confirmation: '' };
    expect(serverErrors(RegisterBodySchema, short)).toEqual({
      password: [`The password must be at least ${PASSWORD_MIN_LENGTH} characters.`],
    });
  });

  it('give the messages the API gives for a run', () => {
    expect(serverErrors(EntryBodySchema, {})).toEqual({
      date: [requiredMessage('date')],
      distance: [requiredMessage('distance')],
      time: [requiredMessage('time')],
    });
    expect(serverErrors(EntryBodySchema, { date: '2024-05-01', distance: 0, time: '00:00:00' })).toEqual({
      distance: [DISTANCE_NOT_POSITIVE_MESSAGE],
      time: [TIME_NOT_POSITIVE_MESSAGE],
    });
  });

  it('take for an e-mail address what the API takes', () => {
    for (const email of ['rita@example.com', 'a@b.c', 'rita@', '@example.com', 'ri ta@example.com', 'rita@example']) {
      expect(EMAIL_PATTERN.test(email), email).toBe(EmailSchema.safeParse(email).success);
    }
  });
});
