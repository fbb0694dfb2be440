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
  | { type: 'user.changeRole'; target: Subject; newRole?: Role; adminCount?: number }
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
      if (actor.id === action.target.id) return deny('You cannot change your own role.');
      if (leavesNoAdmin(action.target, action.newRole, action.adminCount)) {
        return deny('The last admin cannot lose the admin role.');
      }
      return ALLOW;
    case 'user.delete':
      if (!canManageUser(actor, action.target)) return deny();
      if (leavesNoAdmin(action.target, undefined, action.adminCount)) {
        return deny('The last admin account cannot be deleted.');
      }
      return ALLOW;
    case 'entry.listAll':
      return actor.role === 'admin' ? ALLOW : deny();
    case 'entry.manage':
      return actor.id === action.ownerId || actor.role === 'admin' ? ALLOW : deny();
  }
}

/** The last-admin rule: an admin who is deleted (newRole absent) or demoted while they are the only one. */
function leavesNoAdmin(target: Subject, newRole: Role | undefined, adminCount: number | undefined): boolean {
  return target.role === 'admin' && newRole !== 'admin' && adminCount !== undefined && adminCount <= 1;
}

function canManageUser(actor: Actor, target: Subject): boolean {
  if (actor.id === target.id || actor.role === 'admin') return true;
  return actor.role === 'manager' && target.role === 'user';
}

export function can(actor: Actor | null | undefined, action: Action): boolean {
  return actor ? authorize(actor, action).allowed : false;
}
