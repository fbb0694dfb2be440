import data from 'virtual:i18n/data';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { CalendarFeedPanel } from '../../features/data/components/calendar-feed-panel';
import { ExportPanel } from '../../features/data/components/export-panel';
import { ImportPanel } from '../../features/data/components/import-panel';
import { InboxPanel } from '../../features/data/components/inbox-panel';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(data);
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title={t('data.title')}>{t('data.title')}</PageTitle>
      <ImportPanel units={units} />
      <hr className="my-4" />
      <ExportPanel />
      <hr className="my-4" />
      <CalendarFeedPanel />
      <hr className="my-4" />
      <InboxPanel />
    </>
  );
}
