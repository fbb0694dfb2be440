import { Link } from 'react-router';
import notFound from 'virtual:i18n/notFound';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(notFound);
  return (
    <div className="text-center py-5">
      <PageTitle title={t('notFound.title')}>{t('notFound.heading')}</PageTitle>
      <p className="lead">{t('notFound.body')}</p>
      <Link to="/" className="btn btn-primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}
