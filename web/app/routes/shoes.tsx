import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ShoesManager } from '../../features/shoes/components/shoes-manager';

export function Component() {
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title="Shoes">Shoes</PageTitle>
      <ShoesManager units={units} />
    </>
  );
}
