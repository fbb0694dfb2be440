/**
 * Single sign-on (CONTRACT.md §21, decision 051): the exchange of the callback's one-use code, and
 * the reasons a callback sends the browser back with (`/login#oidc_error=<reason>`), which the web
 * app shows in the reader's language.
 */
import { z } from 'zod';
import { requiredText } from './schemas/fields.js';

export const OidcExchangeBodySchema = z.object({ code: requiredText('code', 128) });
export type OidcExchangeBody = z.infer<typeof OidcExchangeBodySchema>;

export const OIDC_ERRORS = [
  /** The provider said no (the user cancelled, or the provider refused the client). */
  'denied',
  /** The sign-in was unknown, used or older than 10 minutes, or came back in another browser. */
  'expired',
  /** The provider's answer did not pass the checks (state, nonce, issuer, audience, signature, expiry). */
  'failed',
  /** The provider could not be reached. */
  'unavailable',
  /** An account has this e-mail but cannot be linked by it: sign in with its password once. */
  'link',
  /** The e-mail is a demo account's. */
  'demo',
  /** SIGNUP=closed and no account is linked. */
  'closed',
  /** The account waits for an admin's approval (SIGNUP=approval). */
  'pending',
  /** SIGNUP=verify, and the provider has not verified the e-mail. */
  'email_unverified',
  /** The provider gave no e-mail address. */
  'no_email',
] as const;
export type OidcError = (typeof OIDC_ERRORS)[number];

/** The one-use code of a callback: 60 s to exchange it; a link waits 10 minutes for its password. */
export const OIDC_CODE_MS = 60_000;
export const OIDC_LINK_MS = 10 * 60_000;
/** A sign-in sent to the provider must come back within 10 minutes. */
export const OIDC_SIGN_IN_MS = 10 * 60_000;
