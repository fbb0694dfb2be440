/**
 * Personal API tokens (CONTRACT.md §11): a runner lists, creates and revokes their own. Only a
 * signed-in session manages them: a personal token, read or write, never does (403). The
 * tokens table belongs to the users feature; this feature holds the rules of the routes.
 */
import type { PersonalToken, TokenCreateBody, TokenCreated } from '../../../core/tokens.js';
import type { AppContext, Session } from '../../context.js';
import { forbidden } from '../../errors.js';
import * as accounts from '../users/users.service.js';

export const TOKENS_NEED_SIGN_IN = 'Personal API tokens cannot manage tokens: sign in to do so.';

function requireSignIn(session: Session): void {
  if (session.scope !== 'full') throw forbidden(TOKENS_NEED_SIGN_IN);
}

export function listTokens(ctx: AppContext, session: Session): Promise<PersonalToken[]> {
  requireSignIn(session);
  return accounts.listPersonalTokens(ctx, session.user.id);
}

export async function createToken(ctx: AppContext, session: Session, body: TokenCreateBody): Promise<TokenCreated> {
  requireSignIn(session);
  const { token, plainText } = await accounts.issuePersonalToken(ctx, session.user.id, body);
  return { token, plain_text_token: plainText };
}

export function revokeToken(ctx: AppContext, session: Session, tokenId: number): Promise<void> {
  requireSignIn(session);
  return accounts.revokePersonalToken(ctx, session.user.id, tokenId);
}
