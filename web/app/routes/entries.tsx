import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useEntries } from '../../features/entries/api/get-entries';
import { EntriesBrowser } from '../../features/entries/components/entries-browser';

export function Component() {
  return (
    <>
      <PageTitle
        title="Time Entries"
        actions={
          <Link to="/entry/new" className="btn btn-success">
            Add new Entry
          </Link>
        }
      >
        Time Entries
      </PageTitle>
      <EntriesBrowser useList={useEntries} editPath={(entry) => `/entry/edit/${entry.id}`} />
    </>
  );
}
