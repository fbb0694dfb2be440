import { describe, expect, it } from 'vitest';
import { authorize, can, UNAUTHORIZED_MESSAGE, type Action, type Actor } from './permissions.js';
import type { Role } from './schemas.js';

const user: Actor = { id: 1, role: 'user' };
const manager: Actor = { id: 2, role: 'manager' };
const admin: Actor = { id: 3, role: 'admin' };
const otherOf = (role: Role) => ({ id: 99, role });

const allowed = (actor: Actor, action: Action) => authorize(actor, action).allowed;
const denialMessage = (actor: Actor, action: Action) => {
  const decision = authorize(actor, action);
  return decision.allowed ? null : decision.message;
};

describe('authorize (CONTRACT.md §5)', () => {
  it('admin panel, admin dashboard and user list are for managers and admins', () => {
    for (const type of ['admin.panel', 'dashboard.admin', 'user.list'] as const) {
      expect(allowed(user, { type })).toBe(false);
      expect(denialMessage(user, { type })).toBe(UNAUTHORIZED_MESSAGE);
      expect(allowed(manager, { type })).toBe(true);
      expect(allowed(admin, { type })).toBe(true);
    }
  });

  it('anyone sees their own profile; only staff see other users', () => {
    expect(allowed(user, { type: 'user.view', target: user })).toBe(true);
    expect(allowed(user, { type: 'user.view', target: otherOf('user') })).toBe(false);
    for (const role of ['user', 'manager', 'admin'] as const) {
      expect(allowed(manager, { type: 'user.view', target: otherOf(role) })).toBe(true);
      expect(allowed(admin, { type: 'user.view', target: otherOf(role) })).toBe(true);
    }
  });

  it('everyone updates themselves; a manager updates only plain users; an admin anyone', () => {
    for (const actor of [user, manager, admin]) {
      expect(allowed(actor, { type: 'user.update', target: actor })).toBe(true);
    }
    expect(allowed(user, { type: 'user.update', target: otherOf('user') })).toBe(false);
    expect(allowed(manager, { type: 'user.update', target: otherOf('user') })).toBe(true);
    expect(allowed(manager, { type: 'user.update', target: otherOf('manager') })).toBe(false);
    expect(allowed(manager, { type: 'user.update', target: otherOf('admin') })).toBe(false);
    for (const role of ['user', 'manager', 'admin'] as const) {
      expect(allowed(admin, { type: 'user.update', target: otherOf(role) })).toBe(true);
    }
  });

  it('only an admin changes roles, and never their own', () => {
    expect(allowed(user, { type: 'user.changeRole', target: user })).toBe(false);
    expect(allowed(user, { type: 'user.changeRole', target: otherOf('user') })).toBe(false);
    expect(allowed(manager, { type: 'user.changeRole', target: manager })).toBe(false);
    expect(allowed(manager, { type: 'user.changeRole', target: otherOf('user') })).toBe(false);
    expect(allowed(admin, { type: 'user.changeRole', target: otherOf('user') })).toBe(true);
    expect(allowed(admin, { type: 'user.changeRole', target: otherOf('admin') })).toBe(true);
    expect(denialMessage(admin, { type: 'user.changeRole', target: admin })).toBe('You cannot change your own role.');
  });

  it('never demotes the last admin', () => {
    const other = otherOf('admin');
    expect(denialMessage(admin, { type: 'user.changeRole', target: other, newRole: 'user', adminCount: 1 })).toBe(
      'The last admin cannot lose the admin role.',
    );
    expect(allowed(admin, { type: 'user.changeRole', target: other, newRole: 'manager', adminCount: 2 })).toBe(true);
    expect(
      allowed(admin, { type: 'user.changeRole', target: otherOf('user'), newRole: 'manager', adminCount: 1 }),
    ).toBe(true);
  });

  it('deletes follow updates, and the last admin cannot be deleted', () => {
    expect(allowed(user, { type: 'user.delete', target: user, adminCount: 1 })).toBe(true);
    expect(allowed(user, { type: 'user.delete', target: otherOf('user'), adminCount: 1 })).toBe(false);
    expect(allowed(manager, { type: 'user.delete', target: manager, adminCount: 1 })).toBe(true);
    expect(allowed(manager, { type: 'user.delete', target: otherOf('user'), adminCount: 1 })).toBe(true);
    expect(allowed(manager, { type: 'user.delete', target: otherOf('manager'), adminCount: 1 })).toBe(false);
    expect(allowed(manager, { type: 'user.delete', target: otherOf('admin'), adminCount: 2 })).toBe(false);
    expect(allowed(admin, { type: 'user.delete', target: otherOf('manager'), adminCount: 1 })).toBe(true);
    expect(allowed(admin, { type: 'user.delete', target: otherOf('admin'), adminCount: 2 })).toBe(true);
    expect(allowed(admin, { type: 'user.delete', target: admin, adminCount: 2 })).toBe(true);
    expect(denialMessage(admin, { type: 'user.delete', target: admin, adminCount: 1 })).toBe(
      'The last admin account cannot be deleted.',
    );
    expect(denialMessage(admin, { type: 'user.delete', target: otherOf('admin'), adminCount: 1 })).toBe(
      'The last admin account cannot be deleted.',
    );
  });

  it('entries belong to their owner; only an admin manages or lists others', () => {
    for (const actor of [user, manager, admin]) {
      expect(allowed(actor, { type: 'entry.manage', ownerId: actor.id })).toBe(true);
    }
    expect(allowed(user, { type: 'entry.manage', ownerId: 99 })).toBe(false);
    expect(allowed(manager, { type: 'entry.manage', ownerId: 99 })).toBe(false);
    expect(allowed(admin, { type: 'entry.manage', ownerId: 99 })).toBe(true);
    expect(allowed(user, { type: 'entry.listAll' })).toBe(false);
    expect(allowed(manager, { type: 'entry.listAll' })).toBe(false);
    expect(allowed(admin, { type: 'entry.listAll' })).toBe(true);
  });
});

describe('can', () => {
  it('denies a guest everything', () => {
    expect(can(null, { type: 'user.view', target: user })).toBe(false);
    expect(can(undefined, { type: 'entry.manage', ownerId: 1 })).toBe(false);
  });

  it('mirrors authorize for a signed-in actor', () => {
    expect(can(admin, { type: 'entry.listAll' })).toBe(true);
    expect(can(manager, { type: 'entry.listAll' })).toBe(false);
  });
});
