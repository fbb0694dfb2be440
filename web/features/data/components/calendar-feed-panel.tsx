import { useId } from 'react';
import calendar from 'virtual:i18n/calendar';
import { useConfirm } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { useChangeCalendarFeed } from '../api/change-calendar-feed';
import { useCalendarFeed } from '../api/get-calendar-feed';

/**
 * The calendar feed (CONTRACT.md §20): the private address of the runner's runs as a calendar to
 * subscribe to; made, copied, replaced (the old address stops at once) and removed here. A refusal
 * is the app's toast of the server's message (app/query-client.ts).
 */
export function CalendarFeedPanel() {
  useT(calendar);
  const id = useId();
  const feed = useCalendarFeed();
  const change = useChangeCalendarFeed();
  const { confirm, dialog } = useConfirm();
  const url = feed.data ?? null;

  const create = () => change.mutate('replace');
  const replace = async () => {
    const sure = await confirm(t('calendar.replaceConfirm'), {
      title: t('calendar.replace'),
      confirmLabel: t('calendar.replace'),
      tone: 'danger',
    });
    if (sure) change.mutate('replace', { onSuccess: () => notify(t('calendar.replaced'), 'success') });
  };
  const remove = async () => {
    const sure = await confirm(t('calendar.removeConfirm'), {
      title: t('calendar.remove'),
      confirmLabel: t('calendar.remove'),
      tone: 'danger',
    });
    if (sure) change.mutate('remove', { onSuccess: () => notify(t('calendar.removed'), 'success') });
  };
  const copy = () => {
    if (!url) return;
    navigator.clipboard
      ?.writeText(url)
      .then(() => notify(t('calendar.copied'), 'success'))
      .catch(() => notify(t('calendar.copyFailed'), 'warning'));
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h4">
        {t('calendar.title')}
      </h2>
      <p className="text-body-secondary">{t('calendar.intro')}</p>
      {feed.isError ? (
        <p className="text-danger">{t('calendar.loadError')}</p>
      ) : feed.isPending ? (
        <p className="text-body-secondary">{t('calendar.loading')}</p>
      ) : url ? (
        <>
          <div className="input-group mb-2">
            <input
              id={`${id}-url`}
              className="form-control font-monospace"
              readOnly
              aria-label={t('calendar.address')}
              value={url}
              onFocus={(event) => event.target.select()}
              translate="no"
            />
            <button type="button" className="btn btn-primary" onClick={copy}>
              {t('calendar.copy')}
            </button>
          </div>
          <p className="small text-body-secondary">{t('calendar.subscribe')}</p>
          <p className="small text-body-secondary">{t('calendar.private')}</p>
          <div className="d-flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-outline-secondary"
              disabled={change.isPending}
              onClick={() => void replace()}
            >
              {t('calendar.replace')}
            </button>
            <button
              type="button"
              className="btn btn-outline-danger"
              disabled={change.isPending}
              onClick={() => void remove()}
            >
              {t('calendar.remove')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('calendar.none')}</p>
          <button type="button" className="btn btn-outline-primary" disabled={change.isPending} onClick={create}>
            {t('calendar.create')}
          </button>
        </>
      )}
      {dialog}
    </section>
  );
}
