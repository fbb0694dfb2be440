import { useParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { useUserDetails } from '../../../features/admin-users/api/get-user';
import { EditUserForm } from '../../../features/admin-users/components/edit-user-form';
import { useUser } from '../../../features/auth/api/get-me';
import { useGoBack } from '../../../lib/use-go-back';
import { BackButton } from '../../../components/back-button';

export function Component() {
  const id = Number(useParams().id);
  const me = useUser();
  const user = useUserDetails(id);
  const goBack = useGoBack('/admin/users');
  return (
    <>
      <PageTitle title="Edit User" actions={<BackButton onClick={goBack} />}>
        Edit User{user.data ? `: ${user.data.name}` : ''}
      </PageTitle>
      <div className="card">
        <div className="card-body">
          {me && user.data ? <EditUserForm me={me} user={user.data} onUpdated={goBack} /> : null}
          {user.isError ? <p className="text-danger mb-0">This user could not be loaded.</p> : null}
        </div>
      </div>
    </>
  );
}
