import { can } from '../../../../core/permissions.js';
import type { User } from '../../../../core/schemas.js';
import { UserForm } from '../../../components/form/user-form';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useUpdateUser } from '../api/update-user';

/** The admin's user edit; the role selector only for those who may change this user's role. */
export function EditUserForm({ me, user, onUpdated }: { me: User; user: User; onUpdated: () => void }) {
  const mutation = useUpdateUser({
    onSuccess: () => {
      notify('User was updated!', 'success');
      onUpdated();
    },
  });
  return (
    <UserForm
      key={user.id}
      user={user}
      showRole={can(me, { type: 'user.changeRole', target: user })}
      submitLabel="Update"
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      failure={mutation.error}
      onSubmit={(payload) => mutation.mutate({ id: user.id, ...payload })}
    />
  );
}
