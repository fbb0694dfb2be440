import { PageTitle } from '../../../components/page-title';
import { useAllEntries } from '../../../features/admin-entries/api/get-all-entries';
import { EntriesBrowser } from '../../../features/entries/components/entries-browser';

/** Everyone's runs: the runner's entries list with a User column, opening the admin's run pages. */
export function Component() {
  return (
    <>
      <PageTitle title="All Entries">All Entries</PageTitle>
      <EntriesBrowser useList={useAllEntries} place="admin" userPath={(userId) => `/admin/user/show/${userId}`} />
    </>
  );
}
