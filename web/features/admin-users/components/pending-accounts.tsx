/** The admin panel's accounts waiting for approval (Approve, Delete) and the invitation form (CONTRACT.md §21). */
import { useState, type FormEvent } from 'react';
import accounts from 'virtual:i18n/accounts';
import admin from 'virtual:i18n/admin';
import type { Role } from '../../../../core/schemas.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { t, useT } from '../../../i18n/runtime';
import { useDeleteUser } from '../api/delete-user';
import { useApprove, useInvite, usePendingAccounts } from '../api/pending-accounts';

export function PendingAccounts() {
  useT(accounts);
  useT(admin);
  const pending = usePendingAccounts();
  const approve = useApprove();
  const remove = useDeleteUser({ onSuccess: () => notify(t('accounts.pending.deleted'), 'success') });
  const { confirm, dialog } = useConfirm();
  const users = pending.data ?? [];
  return (
    <section className="mb-4" aria-labelledby="pending-accounts">
      <h2 id="pending-accounts" className="h4">
        {t('accounts.pending.title')}
      </h2>
      {pending.isSuccess && users.length === 0 ? <p>{t('accounts.pending.empty')}</p> : null}
      {users.length > 0 ? (
        <div className="table-responsive">
          <table className="table align-middle">
            <thead>
              <tr>
                <th scope="col">{t('admin.user.name')}</th>
                <th scope="col">{t('admin.user.email')}</th>
                <th scope="col">{t('admin.users.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td className="d-flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn btn-sm btn-success"
                      disabled={approve.isPending}
                      onClick={() =>
                        approve.mutate(user.id, {
                          onSuccess: () => notify(t('accounts.pending.approved', { name: user.name }), 'success'),
                        })
                      }
                    >
                      {t('accounts.pending.approve')}
                      <span className="visually-hidden"> {user.name}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() =>
                        void confirm(t('accounts.pending.deleteConfirm', { name: user.name, email: user.email })).then(
                          (yes) => yes && remove.mutate(user.id),
                        )
                      }
                    >
                      {t('accounts.pending.delete')}
                      <span className="visually-hidden"> {user.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {dialog}
    </section>
  );
}

const ROLES: Role[] = ['user', 'manager', 'admin'];

export function InviteForm() {
  useT(accounts);
  useT(admin);
  const [values, setValues] = useState<{ email: string; role: Role }>({ email: '', role: 'user' });
  const invite = useInvite();
  const errors = fieldErrorsOf(invite.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email: values.email.trim(), role: values.role },
      {
        onSuccess: (answer) => {
          notify(t('accounts.invite.sent', { email: answer.invitation.email }), 'success');
          setValues({ email: '', role: 'user' });
        },
      },
    );
  };
  return (
    <section className="mb-4" aria-labelledby="invite-someone">
      <h2 id="invite-someone" className="h4">
        {t('accounts.invite.title')}
      </h2>
      <form onSubmit={submit} noValidate aria-label={t('accounts.invite.title')} style={{ maxWidth: 480 }}>
        {invite.error && !errors.email ? (
          <div className="alert alert-danger" role="alert">
            {invite.error.message}
          </div>
        ) : null}
        <FormField
          label={t('accounts.invite.email')}
          type="email"
          name="email"
          autoComplete="off"
          required
          value={values.email}
          onValueChange={(email) => setValues((old) => ({ ...old, email }))}
          errors={errors.email}
        />
        <FormField
          label={t('accounts.invite.role')}
          name="role"
          value={values.role}
          onValueChange={(role) => setValues((old) => ({ ...old, role: role as Role }))}
          options={ROLES.map((role) => ({ value: role, label: t('admin.user.roleName', { role }) }))}
          errors={errors.role}
        />
        <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
          {t('accounts.invite.submit')}
        </button>
      </form>
    </section>
  );
}
