import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import admin from 'virtual:i18n/admin';
import { can } from '../../../../core/permissions.js';
import type { User } from '../../../../core/schemas.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { PencilIcon, TrashIcon } from '../../../components/icons';
import { Pagination } from '../../../components/pagination';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';

/**
 * The client does not know how many admins there are. The one Delete the server can refuse to an
 * admin or a manager allowed to delete a user is the last admin's own account (§5), so an admin's
 * own row never offers it: they delete their account from their profile, which says why not.
 */
const UNKNOWN_ADMIN_COUNT = Number.POSITIVE_INFINITY;

/** Why a user's Delete is not offered: null when it is; '' when the viewer may not delete the user at all. */
function whyNoDelete(me: User, user: User): string | null {
  if (!can(me, { type: 'user.delete', target: user, adminCount: UNKNOWN_ADMIN_COUNT })) return '';
  return me.id === user.id ? t('admin.users.ownAccount') : null;
}

export function UsersList({ me }: { me: User }) {
  useT(admin);
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const query = search.get('query') ?? '';
  const [text, setText] = useState(query);
  const users = useUsers({ page, query: query || undefined });
  const { confirm, dialog } = useConfirm();
  const remove = useDeleteUser({ onSuccess: () => notify(t('admin.users.deleted'), 'success') });
  const display = useDisplay();

  const go = (next: { page: number; query: string }) => {
    const params: Record<string, string> = {};
    if (next.page > 1) params.page = String(next.page);
    if (next.query) params.query = next.query;
    setSearch(params);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ page: 1, query: text.trim() });
  };

  const onDelete = async (user: User) => {
    if (await confirm(t('admin.users.deleteConfirm', { name: user.name, email: user.email }))) remove.mutate(user.id);
  };

  const paged = users.data;
  return (
    <>
      <form className="d-flex gap-2 mb-3" role="search" onSubmit={submit} style={{ maxWidth: 480 }}>
        <label htmlFor="user-search" className="visually-hidden">
          {t('admin.users.searchLabel')}
        </label>
        <input
          id="user-search"
          type="search"
          className="form-control"
          placeholder={t('admin.users.searchPlaceholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {t('admin.users.search')}
        </button>
      </form>
      <p aria-live="polite">
        {paged ? t('admin.users.page', { current: paged.current_page, last: Math.max(1, paged.last_page) }) : '\u00a0'}
      </p>
      {paged ? (
        <div className="table-responsive">
          <table className="table table-striped table-hover align-middle table-stack">
            <thead>
              <tr>
                <th scope="col">{t('admin.user.name')}</th>
                <th scope="col">{t('admin.user.email')}</th>
                <th scope="col">{t('admin.user.role')}</th>
                <th scope="col">{t('admin.user.createdAt')}</th>
                <th scope="col" className="text-end">
                  {t('admin.users.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {paged.data.length === 0 ? (
                <tr>
                  <td colSpan={5} className="text-center text-body-secondary py-4">
                    {t('admin.users.empty')}
                  </td>
                </tr>
              ) : (
                paged.data.map((user) => (
                  <tr key={user.id}>
                    <td data-label={t('admin.user.name')} className="cell-text">
                      <Link to={`/admin/user/show/${user.id}`} translate="no">
                        {user.name}
                      </Link>
                    </td>
                    {/* An address wraps only where it must (at the phone's card width), never a letter a line. */}
                    <td data-label={t('admin.user.email')} className="cell-text">
                      <span translate="no">{user.email}</span>
                    </td>
                    <td data-label={t('admin.user.role')}>{t('admin.user.roleName', { role: user.role })}</td>
                    <td data-label={t('admin.user.createdAt')} className="text-nowrap">
                      {display.formatDateTime(user.date)}
                    </td>
                    <td className="text-end text-nowrap stack-actions">
                      {can(me, { type: 'user.update', target: user }) ? (
                        <Link
                          to={`/admin/user/edit/${user.id}`}
                          className="btn btn-sm btn-outline-primary me-2"
                          aria-label={t('admin.users.editUser', { name: user.name })}
                          title={t('admin.actions.edit')}
                        >
                          <PencilIcon />
                        </Link>
                      ) : null}
                      <DeleteButton reason={whyNoDelete(me, user)} user={user} onDelete={onDelete} />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      {paged && paged.last_page > 1 ? (
        <Pagination
          label={t('admin.users.pages')}
          last={paged.last_page}
          current={paged.current_page}
          onSelect={(next) => go({ page: next, query })}
        />
      ) : null}
      {dialog}
    </>
  );
}

/**
 * A user's Delete: offered when the server would do it; the admin's own row, a disabled button
 * that says why; when the viewer may not delete the user, nothing.
 */
function DeleteButton({
  reason,
  user,
  onDelete,
}: {
  reason: string | null;
  user: User;
  onDelete: (user: User) => Promise<void>;
}) {
  const reasonId = useId();
  if (reason === '') return null;
  if (reason !== null) {
    return (
      <>
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          aria-label={t('admin.users.deleteUser', { name: user.name })}
          aria-describedby={reasonId}
          title={reason}
          disabled
        >
          <TrashIcon />
        </button>
        <span id={reasonId} className="visually-hidden">
          {reason}
        </span>
      </>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-danger"
      aria-label={t('admin.users.deleteUser', { name: user.name })}
      title={t('admin.actions.delete')}
      onClick={() => void onDelete(user)}
    >
      <TrashIcon />
    </button>
  );
}
