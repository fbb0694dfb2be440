import { useState, type FormEvent } from 'react';
import type { PersonalToken, TokenCreated, TokenScope } from '../../../../core/tokens.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import tokensTexts from 'virtual:i18n/tokens';
import { splitAround, t, useT } from '../../../i18n/runtime';
import { useCreateToken } from '../api/create-token';
import { useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';

/** The choices, in the current language (called at render). */
const scopes = () => [
  { value: 'read', label: t('tokens.scope.read') },
  { value: 'write', label: t('tokens.scope.write') },
];
const expiries = () => [
  { value: '', label: t('tokens.expiry.never') },
  ...[7, 30, 90].map((days) => ({ value: String(days), label: t('tokens.expiry.inDays', { count: days }) })),
  { value: '365', label: t('tokens.expiry.inAYear') },
];

function CreateTokenForm({ onCreated }: { onCreated: (created: TokenCreated) => void }) {
  useT(tokensTexts);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiry, setExpiry] = useState('');
  const mutation = useCreateToken();
  const checks = useFormErrors({
    values: { name, scope, expiry },
    validate: (typed) => check({ name: [!typed.name.trim() && t('tokens.form.nameRequired')] }),
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
          label={t('tokens.form.name')}
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
          label={t('tokens.form.access')}
          name="scope"
          className=""
          value={scope}
          onValueChange={(value) => setScope(value === 'write' ? 'write' : 'read')}
          options={scopes()}
          errors={errors.scope}
        />
      </div>
      <div className="col-md-3">
        <FormField
          label={t('tokens.form.expires')}
          name="expires_in_days"
          className=""
          value={expiry}
          onValueChange={setExpiry}
          options={expiries()}
          errors={errors.expires_in_days}
        />
      </div>
      <div className="col-md-2 align-self-end">
        <button type="submit" className="btn btn-primary w-100" disabled={mutation.isPending}>
          {t('tokens.form.create')}
        </button>
      </div>
    </form>
  );
}

/** The new token, shown this once, with a copy button. */
function NewToken({ created, onDone }: { created: TokenCreated; onDone: () => void }) {
  useT(tokensTexts);
  const [beforeName, afterName] = splitAround(t, 'tokens.new.body', 'name');
  const copy = () => {
    navigator.clipboard
      ?.writeText(created.plain_text_token)
      .then(() => notify(t('tokens.new.copied'), 'success'))
      .catch(() => notify(t('tokens.new.copyFailed'), 'warning'));
  };
  return (
    <div className="border border-success rounded p-3 mb-3" role="status">
      <p className="mb-2">
        {beforeName}
        <strong translate="no">{created.token.name}</strong>
        {afterName}
      </p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          readOnly
          aria-label={t('tokens.new.label')}
          value={created.plain_text_token}
          onFocus={(event) => event.target.select()}
          data-testid="new-token"
        />
        <button type="button" className="btn btn-primary" onClick={copy}>
          {t('tokens.new.copy')}
        </button>
      </div>
      <button type="button" className="btn btn-sm btn-secondary" onClick={onDone}>
        {t('tokens.new.done')}
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
  useT(tokensTexts);
  const display = useDisplay();
  if (tokens.length === 0) return <p className="text-body-secondary mb-0">{t('tokens.empty')}</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 table-stack">
        <caption className="visually-hidden">{t('tokens.table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('tokens.table.name')}</th>
            <th scope="col">{t('tokens.table.access')}</th>
            <th scope="col">{t('tokens.table.created')}</th>
            <th scope="col">{t('tokens.table.lastUsed')}</th>
            <th scope="col">{t('tokens.table.expires')}</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('tokens.table.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label={t('tokens.table.name')} className="cell-text" translate="no">
                {token.name}
              </td>
              <td data-label={t('tokens.table.access')}>
                {t(token.scope === 'write' ? 'tokens.table.write' : 'tokens.table.read')}
              </td>
              <td data-label={t('tokens.table.created')}>{display.formatDateTime(token.created_at)}</td>
              <td data-label={t('tokens.table.lastUsed')}>
                {token.last_used_at ? display.formatDateTime(token.last_used_at) : t('tokens.table.never')}
              </td>
              <td data-label={t('tokens.table.expires')}>
                {token.expires_at ? display.formatDateTime(token.expires_at) : t('tokens.table.never')}
              </td>
              <td className="text-end stack-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={t('tokens.table.revokeLabel', { name: token.name })}
                  onClick={() => onRevoke(token)}
                >
                  {t('tokens.table.revoke')}
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
  useT(tokensTexts);
  const tokens = useTokens();
  const revoke = useRevokeToken({ onSuccess: () => notify(t('tokens.revoked'), 'success') });
  const [beforeHeader, afterHeader] = splitAround(t, 'tokens.intro', 'header');
  const { confirm, dialog } = useConfirm();
  const [created, setCreated] = useState<TokenCreated | null>(null);

  const onRevoke = async (token: PersonalToken) => {
    if (await confirm(t('tokens.revokeConfirm', { name: token.name }))) {
      if (created?.token.id === token.id) setCreated(null);
      revoke.mutate(token.id);
    }
  };

  return (
    <>
      <p className="small text-body-secondary">
        {beforeHeader}
        <code translate="no">Authorization: Bearer &lt;token&gt;</code>
        {afterHeader}
      </p>
      <CreateTokenForm onCreated={setCreated} />
      {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}
      {tokens.isError ? (
        <p className="text-danger mb-0">{t('tokens.loadError')}</p>
      ) : tokens.data ? (
        <TokensTable tokens={tokens.data} onRevoke={(token) => void onRevoke(token)} />
      ) : (
        <p className="text-body-secondary mb-0">{t('tokens.loading')}</p>
      )}
      {dialog}
    </>
  );
}
