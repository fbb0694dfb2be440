import { useMemo } from 'react';
import { useParams } from 'react-router';
import admin from 'virtual:i18n/admin';
import { BackButton } from '../../../components/back-button';
import { PageTitle } from '../../../components/page-title';
import { useUserDetails } from '../../../features/admin-users/api/get-user';
import { useUserEntries, type UserEntriesParams } from '../../../features/admin-users/api/get-user-entries';
import { EntriesBrowser } from '../../../features/entries/components/entries-browser';
import { splitAround, useT } from '../../../i18n/runtime';
import { useGoBack } from '../../../lib/use-go-back';

/** The list hook of one user's runs, in the shape the runs browser takes. */
const listOf = (userId: number) =>
  function useThisUsersEntries(params: UserEntriesParams) {
    return useUserEntries(userId, params);
  };

/** One user's runs for the admin: their list as they see it (order, range, totals), opening the admin's run pages. */
export function Component() {
  const t = useT(admin);
  const id = Number(useParams().id);
  const user = useUserDetails(id);
  const goBack = useGoBack(`/admin/user/show/${id}`);
  const name = user.data?.name ?? '';
  const useList = useMemo(() => listOf(id), [id]);
  const [beforeName, afterName] = splitAround(t, 'admin.userEntries.title', 'name');
  return (
    <>
      <PageTitle
        title={name ? t('admin.userEntries.title', { name }) : t('admin.userEntries.titleNoName')}
        actions={<BackButton onClick={goBack} />}
      >
        {name ? (
          <>
            {beforeName}
            <span translate="no">{name}</span>
            {afterName}
          </>
        ) : (
          t('admin.userEntries.titleNoName')
        )}
      </PageTitle>
      <EntriesBrowser useList={useList} place="admin" sortable />
    </>
  );
}
