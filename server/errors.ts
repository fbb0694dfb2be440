/**
 * Errors are data: one AppError (status, message, errors by field), turned into the body of
 * CONTRACT.md §1 by the one error handler (http/error-handler.ts). Services throw these.
 */
import { authorize, UNAUTHORIZED_MESSAGE, type Action, type Actor } from '../core/permissions.js';

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new AppError(401, 'Unauthenticated.');
export const forbidden = (message = UNAUTHORIZED_MESSAGE) => new AppError(403, message);
export const notFound = () => new AppError(404, 'Not found.');
export const invalid = (field: string, message: string) => new AppError(422, message, { [field]: [message] });
export const tooManyAttempts = (seconds: number) =>
  new AppError(429, `Too many attempts. Try again in ${seconds} seconds.`, undefined, {
    'retry-after': String(seconds),
  });

/** Turns a decision of the shared policy (core/permissions.ts) into a 403. */
export function requirePermission(actor: Actor, action: Action): void {
  const decision = authorize(actor, action);
  if (!decision.allowed) throw forbidden(decision.message);
}
