import type { User } from '../../../../core/schemas.js';
import { UserForm } from '../../../components/form/user-form';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import profile from 'virtual:i18n/profile';
import { t, useT } from '../../../i18n/runtime';
import { useUpdateProfile } from '../api/update-profile';

export function ProfileForm({ user }: { user: User }) {
  useT(profile);
  const mutation = useUpdateProfile({ onSuccess: () => notify(t('profile.updated'), 'success') });
  return (
    <UserForm
      key={user.updated_at}
      user={user}
      showTimezone
      submitLabel={t('profile.update')}
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(payload) => mutation.mutate({ id: user.id, ...payload })}
    />
  );
}
