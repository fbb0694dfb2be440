import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useEntries } from '../../features/entries/api/get-entries';
import { EntriesBrowser } from '../../features/entries/components/entries-browser';
import { useShoeNames } from '../../features/shoes/api/get-shoes';

export function Component() {
  const shoeName = useShoeNames();
  return (
    <>
      <PageTitle
        title="Time Entries"
        actions={
          <Link to="/entry/new" state={{ fromList: true }} className="btn btn-success">
            Add new Entry
          </Link>
        }
      >
        Time Entries
      </PageTitle>
      <EntriesBrowser useList={useEntries} place="own" sortable shoeName={shoeName} />
    </>
  );
}
