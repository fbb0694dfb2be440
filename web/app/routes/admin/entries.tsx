import entries from 'virtual:i18n/entries';
import { PageTitle } from '../../../components/page-title';
import { useAllEntries } from '../../../features/admin-entries/api/get-all-entries';
import { EntriesBrowser } from '../../../features/entries/components/entries-browser';
import { useT } from '../../../i18n/runtime';

/** Everyone's runs: the runner's entries list with a User column, opening the admin's run pages. */
export function Component() {
  const t = useT(entries);
  return (
    <>
      <PageTitle title={t('entries.admin.title')}>{t('entries.admin.title')}</PageTitle>
      <EntriesBrowser useList={useAllEntries} place="admin" userPath={(userId) => `/admin/user/show/${userId}`} />
    </>
  );
}
