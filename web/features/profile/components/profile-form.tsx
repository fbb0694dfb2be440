import type { User } from '../../../../core/schemas.js';
import { UserForm } from '../../../components/form/user-form';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

export function ProfileForm({ user }: { user: User }) {
  const mutation = useUpdateProfile({ onSuccess: () => notify('Your profile was updated!', 'success') });
  return (
    <UserForm
      key={user.updated_at}
      user={user}
      showTimezone
      submitLabel="Update"
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(payload) => mutation.mutate({ id: user.id, ...payload })}
    />
  );
}
