import { useId } from 'react';
import { Link } from 'react-router';
import inbox from 'virtual:i18n/inbox';
import type { InboxStatus } from '../../../../core/inbox.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useChangeInbox } from '../api/change-inbox';
import { useInbox } from '../api/get-inbox';

const STATUS_TONE: Record<InboxStatus, string> = {
  created: 'text-success-emphasis',
  track_added: 'text-success-emphasis',
  duplicate: 'text-body-secondary',
  skipped: 'text-warning-emphasis',
  failed: 'text-danger-emphasis',
};

function statusText(status: InboxStatus): string {
  switch (status) {
    case 'created':
      return t('inbox.status.created');
    case 'track_added':
      return t('inbox.status.trackAdded');
    case 'duplicate':
      return t('inbox.status.duplicate');
    case 'skipped':
      return t('inbox.status.skipped');
    case 'failed':
      return t('inbox.status.failed');
  }
}

/**
 * The inbox folder (CONTRACT.md §20): files a sync tool drops in the runner's folder on the
 * server are imported by themselves. Turned on, replaced (the old folder is read no more) and
 * turned off here; the recent rows say what each file gave. A refusal is the app's toast of the
 * server's message (app/query-client.ts).
 */
export function InboxPanel() {
  useT(inbox);
  const id = useId();
  const display = useDisplay();
  const state = useInbox();
  const change = useChangeInbox();
  const { confirm, dialog } = useConfirm();
  const data = state.data;

  const create = () => change.mutate('replace');
  const replace = async () => {
    const sure = await confirm(t('inbox.replaceConfirm'), {
      title: t('inbox.replace'),
      confirmLabel: t('inbox.replace'),
      tone: 'danger',
    });
    if (sure) change.mutate('replace', { onSuccess: () => notify(t('inbox.replaced'), 'success') });
  };
  const remove = async () => {
    const sure = await confirm(t('inbox.removeConfirm'), {
      title: t('inbox.remove'),
      confirmLabel: t('inbox.remove'),
      tone: 'danger',
    });
    if (sure) change.mutate('remove', { onSuccess: () => notify(t('inbox.removed'), 'success') });
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h4">
        {t('inbox.title')}
      </h2>
      <p className="text-body-secondary">{t('inbox.intro')}</p>
      {state.isError ? (
        <p className="text-danger">{t('inbox.loadError')}</p>
      ) : state.isPending || !data ? (
        <p className="text-body-secondary">{t('inbox.loading')}</p>
      ) : !data.enabled ? (
        <p>{t('inbox.off')}</p>
      ) : data.folder ? (
        <>
          <label htmlFor={`${id}-folder`} className="form-label">
            {t('inbox.folder')}
          </label>
          <input
            id={`${id}-folder`}
            className="form-control font-monospace mb-2"
            readOnly
            value={`INBOX_DIR/${data.folder}/`}
            onFocus={(event) => event.target.select()}
            translate="no"
          />
          <p className="small text-body-secondary">{t('inbox.folderHelp')}</p>
          <p className="small text-body-secondary">{t('inbox.syncthing')}</p>
          <p className="small text-body-secondary">{t('inbox.openTracks')}</p>
          <p className="small text-body-secondary">{t('inbox.private')}</p>
          <div className="d-flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-outline-secondary"
              disabled={change.isPending}
              onClick={() => void replace()}
            >
              {t('inbox.replace')}
            </button>
            <button
              type="button"
              className="btn btn-outline-danger"
              disabled={change.isPending}
              onClick={() => void remove()}
            >
              {t('inbox.remove')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('inbox.none')}</p>
          <button type="button" className="btn btn-outline-primary" disabled={change.isPending} onClick={create}>
            {t('inbox.create')}
          </button>
        </>
      )}
      {data && (data.folder || data.recent.length > 0) ? (
        <>
          <h3 className="h5 mt-4" id={`${id}-recent`}>
            {t('inbox.recent')}
          </h3>
          {data.recent.length === 0 ? (
            <p className="text-body-secondary">{t('inbox.recentEmpty')}</p>
          ) : (
            <div className="table-responsive">
              <table className="table table-sm align-middle" aria-labelledby={`${id}-recent`}>
                <thead>
                  <tr>
                    <th scope="col">{t('inbox.table.at')}</th>
                    <th scope="col">{t('inbox.table.file')}</th>
                    <th scope="col">{t('inbox.table.status')}</th>
                    <th scope="col">{t('inbox.table.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.recent.map((row, i) => (
                    <tr key={`${row.at}-${row.source}-${i}`}>
                      <td className="text-nowrap">{display.formatDateTime(row.at)}</td>
                      <td className="text-break" translate="no">
                        {row.source === row.file ? row.file : `${row.file}: ${row.source}`}
                      </td>
                      <td className={STATUS_TONE[row.status]}>
                        {row.entry_id !== null ? (
                          <Link to={`/entry/${row.entry_id}`}>{statusText(row.status)}</Link>
                        ) : (
                          statusText(row.status)
                        )}
                      </td>
                      <td className="small">{row.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
      {dialog}
    </section>
  );
}
