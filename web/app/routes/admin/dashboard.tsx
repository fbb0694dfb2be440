import { PageTitle } from '../../../components/page-title';
import { AdminDashboardStats } from '../../../features/admin-dashboard/components/admin-dashboard-stats';
import { useUser } from '../../../features/auth/api/get-me';

export function Component() {
  const me = useUser();
  return (
    <>
      <PageTitle title="Admin Dashboard">Admin Dashboard</PageTitle>
      {me ? <AdminDashboardStats me={me} /> : null}
    </>
  );
}
