import { Link, useSearchParams } from 'react-router';
import insights from 'virtual:i18n/insights';
import { PageTitle } from '../../components/page-title';
import { useEntries } from '../../features/entries/api/get-entries';
import { YearReview } from '../../features/insights/components/year-review';
import { useT } from '../../i18n/runtime';
import { useDisplay } from '../../lib/display';

/** The year of the runner's first run (their oldest), null before it is known or without runs. */
function useFirstRunYear(): number | null {
  const oldest = useEntries({ page: 1, perPage: 1, sort: 'date' }).data?.entries.data[0];
  return oldest ? Number(oldest.date.slice(0, 4)) : null;
}

export function Component() {
  const t = useT(insights);
  const [search] = useSearchParams();
  const thisYear = Number(useDisplay().today().slice(0, 4));
  const firstYear = useFirstRunYear();
  const requested = Number(search.get('year'));
  const year = Number.isInteger(requested) && requested >= 1900 && requested <= 2100 ? requested : thisYear;
  return (
    <>
      <PageTitle
        title={t('insights.year.pageTitle', { year })}
        actions={
          <nav aria-label={t('insights.year.years')} className="d-flex gap-2">
            {/* No year before the first run: there is nothing there to review. */}
            {firstYear !== null && year > firstYear ? (
              <Link className="btn btn-outline-secondary btn-sm" to={`/insights/year?year=${year - 1}`}>
                ← {year - 1}
              </Link>
            ) : null}
            {year < thisYear ? (
              <Link className="btn btn-outline-secondary btn-sm" to={`/insights/year?year=${year + 1}`}>
                {year + 1} →
              </Link>
            ) : null}
          </nav>
        }
      >
        {t('insights.year.pageTitle', { year })}
      </PageTitle>
      <YearReview year={year} />
    </>
  );
}
