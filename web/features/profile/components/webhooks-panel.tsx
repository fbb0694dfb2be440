import { useId, useState, type FormEvent } from 'react';
import { MAX_WEBHOOK_URL, WEBHOOK_EVENTS, type Webhook, type WebhookEvent } from '../../../../core/webhooks.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { check } from '../../../components/form/form-errors';
import { FormField } from '../../../components/form/form-field';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import webhooksTexts from 'virtual:i18n/webhooks';
import { t, useT } from '../../../i18n/runtime';
import { useAddWebhook } from '../api/add-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';

/** An event's name in the current language (called at render). */
const eventLabel = (event: WebhookEvent) =>
  t(
    event === WEBHOOK_EVENTS[0]
      ? 'webhooks.event.created'
      : event === WEBHOOK_EVENTS[1]
        ? 'webhooks.event.updated'
        : 'webhooks.event.deleted',
  );

/** How the last delivery went, in the current language (the server's own text is for programs). */
function outcomeText(last: NonNullable<Webhook['last_delivery']>): string {
  const { status, error } = last;
  if (status !== null && status >= 200 && status < 300) return t('webhooks.status.delivered', { status });
  if (status !== null && status >= 300 && status < 400) return t('webhooks.status.redirect', { status });
  if (status !== null) return t('webhooks.status.http', { status });
  return t(error === 'Address not allowed.' ? 'webhooks.status.refused' : 'webhooks.status.noAnswer');
}

type Created = { webhook: Webhook; secret: string };

function AddWebhookForm({ onAdded }: { onAdded: (created: Created) => void }) {
  useT(webhooksTexts);
  const id = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const mutation = useAddWebhook();
  const checks = useFormErrors({
    values: { url, events: events.join(',') },
    validate: (typed) =>
      check({
        url: [!typed.url.trim() && t('webhooks.form.urlRequired')],
        events: [typed.events === '' && t('webhooks.form.eventsRequired')],
      }),
    serverErrors: fieldErrorsOf(mutation.error),
    sources: { webhook: ['url'] },
  });
  const errors = checks.errors;
  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((chosen) => WEBHOOK_EVENTS.filter((e) => (e === event ? on : chosen.includes(e))));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checks.submit()) return;
    mutation.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (created) => {
          setUrl('');
          checks.reset();
          onAdded(created);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="mb-3">
      <FormField
        label={t('webhooks.form.url')}
        name="url"
        type="url"
        inputMode="url"
        maxLength={MAX_WEBHOOK_URL}
        autoComplete="off"
        value={url}
        onValueChange={setUrl}
        errors={[...(errors.url ?? []), ...(errors.webhook ?? [])]}
        hint={t('webhooks.form.urlHint')}
      />
      <fieldset className="mb-3" aria-describedby={errors.events ? `${id}-events-error` : undefined}>
        <legend className="form-label fs-6">{t('webhooks.form.events')}</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <div className="form-check form-check-inline" key={event}>
            <input
              id={`${id}-${event}`}
              className={`form-check-input${errors.events ? ' is-invalid' : ''}`}
              type="checkbox"
              checked={events.includes(event)}
              onChange={(e) => toggle(event, e.target.checked)}
            />
            <label className="form-check-label" htmlFor={`${id}-${event}`}>
              {eventLabel(event)}
            </label>
          </div>
        ))}
        {errors.events ? (
          <div id={`${id}-events-error`} className="invalid-feedback d-block">
            {errors.events.join(' ')}
          </div>
        ) : null}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        {t('webhooks.form.add')}
      </button>
    </form>
  );
}

/** The new webhook's secret, shown this once, with a copy button. */
function NewSecret({ created, onDone }: { created: Created; onDone: () => void }) {
  useT(webhooksTexts);
  const copy = () => {
    navigator.clipboard
      ?.writeText(created.secret)
      .then(() => notify(t('webhooks.new.copied'), 'success'))
      .catch(() => notify(t('webhooks.new.copyFailed'), 'warning'));
  };
  return (
    <div className="border border-success rounded p-3 mb-3" role="status">
      <p className="mb-2">{t('webhooks.new.body')}</p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          readOnly
          aria-label={t('webhooks.new.label')}
          value={created.secret}
          onFocus={(event) => event.target.select()}
          translate="no"
          data-testid="new-webhook-secret"
        />
        <button type="button" className="btn btn-primary" onClick={copy}>
          {t('webhooks.new.copy')}
        </button>
      </div>
      <button type="button" className="btn btn-sm btn-secondary" onClick={onDone}>
        {t('webhooks.new.done')}
      </button>
    </div>
  );
}

function WebhooksTable({ webhooks, onDelete }: { webhooks: readonly Webhook[]; onDelete: (webhook: Webhook) => void }) {
  useT(webhooksTexts);
  const display = useDisplay();
  if (webhooks.length === 0) return <p className="text-body-secondary mb-0">{t('webhooks.empty')}</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 table-stack">
        <caption className="visually-hidden">{t('webhooks.table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('webhooks.table.url')}</th>
            <th scope="col">{t('webhooks.table.events')}</th>
            <th scope="col">{t('webhooks.table.lastDelivery')}</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('webhooks.table.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => (
            <tr key={webhook.id}>
              <td data-label={t('webhooks.table.url')} className="cell-text text-break" translate="no">
                {webhook.url}
              </td>
              <td data-label={t('webhooks.table.events')}>{webhook.events.map(eventLabel).join(', ')}</td>
              <td data-label={t('webhooks.table.lastDelivery')}>
                {webhook.last_delivery
                  ? `${display.formatDateTime(webhook.last_delivery.at)} · ${outcomeText(webhook.last_delivery)}`
                  : t('webhooks.table.never')}
              </td>
              <td className="text-end stack-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={t('webhooks.table.deleteLabel', { url: webhook.url })}
                  onClick={() => onDelete(webhook)}
                >
                  {t('webhooks.table.delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Webhooks (CONTRACT.md §20): add one (its secret shown once, with a copy button), see how its
 * last delivery went, delete it. A refusal is the app's toast of the server's message.
 */
export function WebhooksPanel() {
  useT(webhooksTexts);
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook({ onSuccess: () => notify(t('webhooks.deleted'), 'success') });
  const { confirm, dialog } = useConfirm();
  const [created, setCreated] = useState<Created | null>(null);

  const onDelete = async (webhook: Webhook) => {
    if (await confirm(t('webhooks.deleteConfirm', { url: webhook.url }))) {
      if (created?.webhook.id === webhook.id) setCreated(null);
      remove.mutate(webhook.id);
    }
  };

  return (
    <>
      <p className="small text-body-secondary">{t('webhooks.intro')}</p>
      <AddWebhookForm onAdded={setCreated} />
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      {webhooks.isError ? (
        <p className="text-danger mb-0">{t('webhooks.loadError')}</p>
      ) : webhooks.data ? (
        <WebhooksTable webhooks={webhooks.data} onDelete={(webhook) => void onDelete(webhook)} />
      ) : (
        <p className="text-body-secondary mb-0">{t('webhooks.loading')}</p>
      )}
      {dialog}
    </>
  );
}
