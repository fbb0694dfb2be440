import { useState, type FormEvent } from 'react';
import { requiredMessage } from '../../../../core/messages.js';
import type { PersonalToken, TokenCreated, TokenScope } from '../../../../core/tokens.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useCreateToken } from '../api/create-token';
import { useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';

const SCOPES = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and write' },
];
const EXPIRIES = [
  { value: '', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
];

function CreateTokenForm({ onCreated }: { onCreated: (created: TokenCreated) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiry, setExpiry] = useState('');
  const mutation = useCreateToken();
  const checks = useFormErrors({
    values: { name, scope, expiry },
    validate: (typed) => check({ name: [!typed.name.trim() && requiredMessage('name')] }),
    serverErrors: fieldErrorsOf(mutation.error),
    sources: { expires_in_days: ['expiry'] },
  });
  const errors = checks.errors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checks.submit()) return;
    mutation.mutate(
      { name: name.trim(), scope, ...(expiry ? { expires_in_days: Number(expiry) } : {}) },
      {
        onSuccess: (created) => {
          setName('');
          checks.reset();
          onCreated(created);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="row g-2 align-items-start mb-3">
      <div className="col-md-4">
        <FormField
          label="Token name"
          name="name"
          maxLength={100}
          autoComplete="off"
          className=""
          value={name}
          onValueChange={setName}
          errors={errors.name}
        />
      </div>
      <div className="col-md-3">
        <FormField
          label="Access"
          name="scope"
          className=""
          value={scope}
          onValueChange={(value) => setScope(value === 'write' ? 'write' : 'read')}
          options={SCOPES}
          errors={errors.scope}
        />
      </div>
      <div className="col-md-3">
        <FormField
          label="Expires"
          name="expires_in_days"
          className=""
          value={expiry}
          onValueChange={setExpiry}
          options={EXPIRIES}
          errors={errors.expires_in_days}
        />
      </div>
      <div className="col-md-2 align-self-end">
        <button type="submit" className="btn btn-primary w-100" disabled={mutation.isPending}>
          Create
        </button>
      </div>
    </form>
  );
}

/** The new token, shown this once, with a copy button. */
function NewToken({ created, onDone }: { created: TokenCreated; onDone: () => void }) {
  const copy = () => {
    navigator.clipboard
      ?.writeText(created.plain_text_token)
      .then(() => notify('The token was copied.', 'success'))
      .catch(() => notify('The token could not be copied: select it and copy it by hand.', 'warning'));
  };
  return (
    <div className="border border-success rounded p-3 mb-3" role="status">
      <p className="mb-2">
        Your new token <strong>{created.token.name}</strong>. Copy it now: it is not shown again.
      </p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          readOnly
          aria-label="New token"
          value={created.plain_text_token}
          onFocus={(event) => event.target.select()}
          data-testid="new-token"
        />
        <button type="button" className="btn btn-primary" onClick={copy}>
          Copy
        </button>
      </div>
      <button type="button" className="btn btn-sm btn-secondary" onClick={onDone}>
        Done, hide it
      </button>
    </div>
  );
}

function TokensTable({
  tokens,
  onRevoke,
}: {
  tokens: readonly PersonalToken[];
  onRevoke: (token: PersonalToken) => void;
}) {
  const display = useDisplay();
  if (tokens.length === 0) return <p className="text-body-secondary mb-0">You have no API tokens.</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 table-stack">
        <caption className="visually-hidden">Your API tokens</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Access</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label="Name" className="cell-text">
                {token.name}
              </td>
              <td data-label="Access">{token.scope === 'write' ? 'Write' : 'Read'}</td>
              <td data-label="Created">{display.formatDateTime(token.created_at)}</td>
              <td data-label="Last used">
                {token.last_used_at ? display.formatDateTime(token.last_used_at) : 'Never'}
              </td>
              <td data-label="Expires">{token.expires_at ? display.formatDateTime(token.expires_at) : 'Never'}</td>
              <td className="text-end stack-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={`Revoke the token ${token.name}`}
                  onClick={() => onRevoke(token)}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Personal API tokens (CONTRACT.md §11): create one (shown once), see their last use, revoke them. */
export function ApiTokens() {
  const tokens = useTokens();
  const revoke = useRevokeToken({ onSuccess: () => notify('The token was revoked.', 'success') });
  const { confirm, dialog } = useConfirm();
  const [created, setCreated] = useState<TokenCreated | null>(null);

  const onRevoke = async (token: PersonalToken) => {
    if (await confirm(`Revoke the token "${token.name}"? Scripts that use it stop working.`)) {
      if (created?.token.id === token.id) setCreated(null);
      revoke.mutate(token.id);
    }
  };

  return (
    <>
      <p className="small text-body-secondary">
        Scripts and apps send a token as <code>Authorization: Bearer &lt;token&gt;</code>. A read token can only read; a
        write token can also add and change runs, but never manage tokens, change your e-mail address or password, or
        delete your account. Signing out does not revoke tokens; changing your password does.
      </p>
      <CreateTokenForm onCreated={setCreated} />
      {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}
      {tokens.isError ? (
        <p className="text-danger mb-0">Your tokens could not be loaded.</p>
      ) : tokens.data ? (
        <TokensTable tokens={tokens.data} onRevoke={(token) => void onRevoke(token)} />
      ) : (
        <p className="text-body-secondary mb-0">Loading…</p>
      )}
      {dialog}
    </>
  );
}
