import { Link } from 'react-router';
import entries from 'virtual:i18n/entries';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { useEntries } from '../../features/entries/api/get-entries';
import { EntriesBrowser } from '../../features/entries/components/entries-browser';
import { WaitingRuns } from '../../features/entries/components/waiting-runs';
import { useShoeNames } from '../../features/shoes/api/get-shoes';

export function Component() {
  const t = useT(entries);
  const shoeName = useShoeNames();
  return (
    <>
      <PageTitle
        title={t('entries.list.title')}
        actions={
          <Link to="/entry/new" state={{ fromList: true }} className="btn btn-success">
            {t('entries.list.add')}
          </Link>
        }
      >
        {t('entries.list.title')}
      </PageTitle>
      <WaitingRuns />
      <EntriesBrowser useList={useEntries} place="own" sortable shoeName={shoeName} />
    </>
  );
}
