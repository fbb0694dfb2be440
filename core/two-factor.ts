/**
 * Two-factor sign-in (CONTRACT.md §21, decision 049): TOTP of RFC 6238 (SHA-1, 30 s steps, 6
 * digits) after the password, or one of ten recovery codes. The schemas of its calls.
 */
import { z } from 'zod';
import { AuthResponseSchema } from './schemas/users.js';
import { requiredText } from './schemas/fields.js';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: two groups of five of [a-z0-9] (about 52 bits), e.g. `k3x9q-7bm2d`. */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-[a-z0-9]{5}$/;

/** A code as typed: spaces and dashes dropped, lower case (a TOTP code is its 6 digits). */
export const normalizeCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();
/** Is this (normalized) code shaped as a TOTP code rather than a recovery code? */
export const isTotpShaped = (normalized: string): boolean => /^\d{6}$/.test(normalized);

export const TwoFactorSetupSchema = z.object({
  secret: z.string().describe('The TOTP secret in Base32, for typing into an authenticator app'),
  otpauth_url: z.string().describe('otpauth://totp/... (SHA-1, 6 digits, 30 s): the QR code’s text'),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

export const TwoFactorCodeBodySchema = z.object({
  code: requiredText('code', 64),
});

export const RecoveryCodesSchema = z.object({
  recovery_codes: z.array(z.string()).describe('Ten codes, each good for one sign-in; shown this once'),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** Turning it off: the password, or a current code (TOTP or recovery). `_method` as the web app sends deletes. */
export const TwoFactorDisableBodySchema = z
  .looseObject({
    password: z.string().optional(),
    code: z.string().optional(),
    _method: z.string().optional(),
  })
  .nullish();
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBodySchema>;

export const TwoFactorRequiredSchema = z.object({
  two_factor_required: z.literal(true),
  challenge: z.string().describe('Send it with a code to POST /auth/two-factor within 5 minutes'),
});
export type TwoFactorRequired = z.infer<typeof TwoFactorRequiredSchema>;

/** What a login answers: signed in, or a code is needed first. */
export const LoginAnswerSchema = z.union([AuthResponseSchema, TwoFactorRequiredSchema]);
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

export const TwoFactorSignInBodySchema = z.object({
  challenge: requiredText('challenge', 128),
  code: requiredText('code', 64),
});
export type TwoFactorSignInBody = z.infer<typeof TwoFactorSignInBodySchema>;

export const isTwoFactorRequired = (answer: LoginAnswer): answer is TwoFactorRequired =>
  'two_factor_required' in answer && answer.two_factor_required === true;
