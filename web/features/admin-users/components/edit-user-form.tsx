import { can } from '../../../../core/permissions.js';
import admin from 'virtual:i18n/admin';
import type { User } from '../../../../core/schemas.js';
import { UserForm } from '../../../components/form/user-form';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useUpdateUser } from '../api/update-user';

/** The admin's user edit; the role selector only for those who may change this user's role. */
export function EditUserForm({ me, user, onUpdated }: { me: User; user: User; onUpdated: () => void }) {
  useT(admin);
  const mutation = useUpdateUser({
    onSuccess: () => {
      notify(t('admin.userEdit.updated'), 'success');
      onUpdated();
    },
  });
  return (
    <UserForm
      key={user.id}
      user={user}
      showRole={can(me, { type: 'user.changeRole', target: user })}
      submitLabel={t('admin.userEdit.submit')}
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      failure={mutation.error}
      onSubmit={(payload) => mutation.mutate({ id: user.id, ...payload })}
    />
  );
}
