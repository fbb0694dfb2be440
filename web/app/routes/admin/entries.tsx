import { PageTitle } from '../../../components/page-title';
import { useAllEntries } from '../../../features/admin-entries/api/get-all-entries';
import { EntriesBrowser } from '../../../features/entries/components/entries-browser';

/** Everyone's runs: the runner's entries list with a User column and the admin edit screen. */
export function Component() {
  return (
    <>
      <PageTitle title="All Entries">All Entries</PageTitle>
      <EntriesBrowser
        useList={useAllEntries}
        editPath={(entry) => `/admin/entry/edit/${entry.id}`}
        userPath={(userId) => `/admin/user/show/${userId}`}
      />
    </>
  );
}
