/**
 * Who may do what: CONTRACT.md §5 as one policy function. The server enforces it on
 * every request; the web app asks it to decide which menus and controls to show.
 */
import type { Role } from './schemas.js';

export interface Actor {
  id: number;
  role: Role;
}

/** The owner or subject of a resource: a user (id and role). */
export interface Subject {
  id: number;
  role: Role;
}

export type Action =
  | { type: 'admin.panel' }
  | { type: 'dashboard.admin' }
  | { type: 'user.list' }
  | { type: 'user.view'; target: Subject }
  | { type: 'user.update'; target: Subject }
  | { type: 'user.changeRole'; target: Subject }
  | { type: 'user.delete'; target: Subject; adminCount: number }
  | { type: 'entry.listAll' }
  | { type: 'entry.manage'; ownerId: number };

export type Decision = { allowed: true } | { allowed: false; message: string };

export const UNAUTHORIZED_MESSAGE = 'This action is unauthorized.';
const ALLOW: Decision = { allowed: true };
const deny = (message = UNAUTHORIZED_MESSAGE): Decision => ({ allowed: false, message });

const isStaff = (actor: Actor) => actor.role === 'admin' || actor.role === 'manager';

export function authorize(actor: Actor, action: Action): Decision {
  switch (action.type) {
    case 'admin.panel':
    case 'dashboard.admin':
    case 'user.list':
      return isStaff(actor) ? ALLOW : deny();
    case 'user.view':
      return actor.id === action.target.id || isStaff(actor) ? ALLOW : deny();
    case 'user.update':
      return canManageUser(actor, action.target) ? ALLOW : deny();
    case 'user.changeRole':
      if (actor.role !== 'admin') return deny();
      return actor.id === action.target.id ? deny('You cannot change your own role.') : ALLOW;
    case 'user.delete':
      if (!canManageUser(actor, action.target)) return deny();
      if (action.target.role === 'admin' && action.adminCount <= 1) {
        return deny('The last admin account cannot be deleted.');
      }
      return ALLOW;
    case 'entry.listAll':
      return actor.role === 'admin' ? ALLOW : deny();
    case 'entry.manage':
      return actor.id === action.ownerId || actor.role === 'admin' ? ALLOW : deny();
  }
}

function canManageUser(actor: Actor, target: Subject): boolean {
  if (actor.id === target.id || actor.role === 'admin') return true;
  return actor.role === 'manager' && target.role === 'user';
}

export function can(actor: Actor | null | undefined, action: Action): boolean {
  return actor ? authorize(actor, action).allowed : false;
}
