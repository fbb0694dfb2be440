import { Link } from 'react-router';
import home from 'virtual:i18n/home';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(home);
  const user = useUser();
  return (
    <>
      <section className="p-4 p-md-5 mb-4 bg-body-tertiary rounded-3">
        <PageTitle title={t('home.title')}>{t('home.heading')}</PageTitle>
        <p className="lead col-md-9">{t('home.lead')}</p>
        <div className="d-flex flex-wrap gap-2">
          {user ? (
            <Link to="/dashboard" className="btn btn-primary btn-lg">
              {t('home.toDashboard')}
            </Link>
          ) : (
            <>
              <Link to="/register" className="btn btn-primary btn-lg">
                {t('home.register')}
              </Link>
              <Link to="/login" className="btn btn-outline-dark btn-lg">
                {t('home.login')}
              </Link>
            </>
          )}
        </div>
      </section>
      <div className="row g-4">
        <section className="col-md-4">
          <h2 className="h5">{t('home.log.title')}</h2>
          <p>{t('home.log.body')}</p>
        </section>
        <section className="col-md-4">
          <h2 className="h5">{t('home.pace.title')}</h2>
          <p>{t('home.pace.body')}</p>
        </section>
        <section className="col-md-4">
          <h2 className="h5">{t('home.weeks.title')}</h2>
          <p>{t('home.weeks.body')}</p>
        </section>
      </div>
    </>
  );
}
