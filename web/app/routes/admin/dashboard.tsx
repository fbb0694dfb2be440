import admin from 'virtual:i18n/admin';
import { PageTitle } from '../../../components/page-title';
import { AdminDashboardStats } from '../../../features/admin-dashboard/components/admin-dashboard-stats';
import { useUser } from '../../../features/auth/api/get-me';
import { useT } from '../../../i18n/runtime';

export function Component() {
  const t = useT(admin);
  const me = useUser();
  return (
    <>
      <PageTitle title={t('admin.dashboard.title')}>{t('admin.dashboard.title')}</PageTitle>
      {me ? <AdminDashboardStats me={me} /> : null}
    </>
  );
}
