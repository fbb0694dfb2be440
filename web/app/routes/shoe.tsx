import { Link, useParams } from 'react-router';
import { BackButton } from '../../components/back-button';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ShoeRuns } from '../../features/entries/components/shoe-runs';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { ShoeSummary } from '../../features/shoes/components/shoes-manager';
import { useGoBack } from '../../lib/use-go-back';
import shoesTexts from 'virtual:i18n/shoes';
import { useT } from '../../i18n/runtime';

/** A shoe's page: its distance against its limit, and the runs in it. */
export function Component() {
  const t = useT(shoesTexts);
  const id = Number(useParams().id);
  const units = useUser()?.units ?? 'km';
  const shoes = useShoes();
  const goBack = useGoBack('/shoes');
  const shoe = shoes.data?.find((candidate) => candidate.id === id);
  if (shoes.isError) return <p className="text-danger">{t('shoes.loadError')}</p>;
  if (!shoes.data) return <p className="text-body-secondary">{t('shoes.loading')}</p>;
  if (!shoe) {
    return (
      <div className="py-4">
        <PageTitle title={t('shoes.notFound.title')}>{t('shoes.notFound.title')}</PageTitle>
        <p>{t('shoes.notFound.body')}</p>
        <Link to="/shoes" className="btn btn-primary">
          {t('shoes.notFound.back')}
        </Link>
      </div>
    );
  }
  return (
    <>
      <PageTitle title={shoe.name} actions={<BackButton onClick={goBack} />}>
        <span translate="no">{shoe.name}</span>
      </PageTitle>
      <ShoeSummary shoe={shoe} units={units} />
      <ShoeRuns shoeId={shoe.id} />
    </>
  );
}
