import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { User } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import profile from 'virtual:i18n/profile';
import { splitAround, useT } from '../../../i18n/runtime';
import { useDeleteAccount } from '../api/delete-account';

/** The address in the form the server stores it: a typed one matches whatever its case and spaces. */
const sameAddress = (typed: string, email: string) => typed.trim().toLowerCase() === email.toLowerCase();

/**
 * "Delete my account": confirmed by typing one's own e-mail address, as deleting takes every run,
 * shoe, goal and token with it and cannot be undone. `onDeleted` ends the session.
 */
export function DeleteAccount({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const t = useT(profile);
  const [typed, setTyped] = useState('');
  const mutation = useDeleteAccount({ onSuccess: onDeleted });
  const confirmed = sameAddress(typed, user.email);
  const [beforeLink, afterLink] = splitAround(t, 'profile.delete.body', 'link');
  const [beforeEmail, afterEmail] = splitAround(t, 'profile.delete.hint', 'email');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed) mutation.mutate(user.id);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('profile.delete.form')}>
      <p>
        {beforeLink}
        <Link to="/data">{t('profile.delete.link')}</Link>
        {afterLink}
      </p>
      {user.role === 'admin' ? <p>{t('profile.delete.lastAdmin')}</p> : null}
      <FormField
        label={t('profile.delete.confirm')}
        name="confirm_email"
        type="email"
        autoComplete="off"
        value={typed}
        onValueChange={setTyped}
        hint={
          <>
            {beforeEmail}
            <span translate="no">{user.email}</span>
            {afterEmail}
          </>
        }
      />
      <button type="submit" className="btn btn-danger" disabled={!confirmed || mutation.isPending}>
        {t('profile.delete.submit')}
      </button>
    </form>
  );
}
