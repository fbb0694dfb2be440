import { Link, useParams } from 'react-router';
import { BackButton } from '../../components/back-button';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ShoeRuns } from '../../features/entries/components/shoe-runs';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { ShoeSummary } from '../../features/shoes/components/shoes-manager';
import { useGoBack } from '../../lib/use-go-back';

/** A shoe's page: its distance against its limit, and the runs in it. */
export function Component() {
  const id = Number(useParams().id);
  const units = useUser()?.units ?? 'km';
  const shoes = useShoes();
  const goBack = useGoBack('/shoes');
  const shoe = shoes.data?.find((candidate) => candidate.id === id);
  if (shoes.isError) return <p className="text-danger">Your shoes could not be loaded.</p>;
  if (!shoes.data) return <p className="text-body-secondary">Loading…</p>;
  if (!shoe) {
    return (
      <div className="py-4">
        <PageTitle title="Shoe not found">Shoe not found</PageTitle>
        <p>There is no such shoe among yours.</p>
        <Link to="/shoes" className="btn btn-primary">
          Back to your shoes
        </Link>
      </div>
    );
  }
  return (
    <>
      <PageTitle title={shoe.name} actions={<BackButton onClick={goBack} />}>
        {shoe.name}
      </PageTitle>
      <ShoeSummary shoe={shoe} units={units} />
      <ShoeRuns shoeId={shoe.id} />
    </>
  );
}
