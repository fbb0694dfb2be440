/** Turns a decision of the shared policy (core/permissions.ts) into a 403. */
import { authorize, type Action, type Actor } from '../../core/permissions.js';
import { forbidden } from './errors.js';

export function requirePermission(actor: Actor, action: Action): void {
  const decision = authorize(actor, action);
  if (!decision.allowed) throw forbidden(decision.message);
}
