import { PageTitle } from '../../../components/page-title';
import { UsersList } from '../../../features/admin-users/components/users-list';
import { useUser } from '../../../features/auth/api/get-me';

export function Component() {
  const me = useUser();
  return (
    <>
      <PageTitle title="Users">Users</PageTitle>
      {me ? <UsersList me={me} /> : null}
    </>
  );
}
