import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { User } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import { useDeleteAccount } from '../api/delete-account';

/** The address in the form the server stores it: a typed one matches whatever its case and spaces. */
const sameAddress = (typed: string, email: string) => typed.trim().toLowerCase() === email.toLowerCase();

/**
 * "Delete my account": confirmed by typing one's own e-mail address, as deleting takes every run,
 * shoe, goal and token with it and cannot be undone. `onDeleted` ends the session.
 */
export function DeleteAccount({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const [typed, setTyped] = useState('');
  const mutation = useDeleteAccount({ onSuccess: onDeleted });
  const confirmed = sameAddress(typed, user.email);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed) mutation.mutate(user.id);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Delete my account">
      <p>
        Deleting your account removes it for good, with all your runs, shoes, goals and API tokens. Export your runs
        first on the <Link to="/data">Your data</Link> page if you want to keep them.
      </p>
      {user.role === 'admin' ? (
        <p>The last admin account cannot be deleted: make another user an admin first.</p>
      ) : null}
      <FormField
        label="To confirm, type your e-mail"
        name="confirm_email"
        type="email"
        autoComplete="off"
        value={typed}
        onValueChange={setTyped}
        hint={`Your address is ${user.email}.`}
      />
      <button type="submit" className="btn btn-danger" disabled={!confirmed || mutation.isPending}>
        Delete my account
      </button>
    </form>
  );
}
