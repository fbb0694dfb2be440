import { Link } from 'react-router';
import policy from 'virtual:i18n/policy';
import { PageTitle } from '../../components/page-title';
import { splitAround, useT } from '../../i18n/runtime';

/** The youngest age served. */
const MINIMUM_AGE = 13;

export function Component() {
  const t = useT(policy);
  const [beforeLink, afterLink] = splitAround(t, 'policy.deleting.body', 'link');
  return (
    <article>
      <PageTitle title={t('policy.title')}>{t('policy.title')}</PageTitle>
      <p>{t('policy.intro')}</p>
      <h2 className="h5">{t('policy.use.title')}</h2>
      <p>{t('policy.use.body')}</p>
      <h2 className="h5">{t('policy.access.title')}</h2>
      <p>{t('policy.access.body')}</p>
      <h2 className="h5">{t('policy.children.title')}</h2>
      <p>{t('policy.children.body', { age: MINIMUM_AGE })}</p>
      <h2 className="h5">{t('policy.deleting.title')}</h2>
      <p>
        {beforeLink}
        <Link to="/delete-account">{t('policy.deleting.link')}</Link>
        {afterLink}
      </p>
    </article>
  );
}
