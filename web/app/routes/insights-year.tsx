import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { YearReview } from '../../features/insights/components/year-review';

export function Component() {
  const [search] = useSearchParams();
  const thisYear = new Date().getFullYear();
  const requested = Number(search.get('year'));
  const year = Number.isInteger(requested) && requested >= 1900 && requested <= 2100 ? requested : thisYear;
  return (
    <>
      <PageTitle
        title={`Year ${year}`}
        actions={
          <nav aria-label="Years" className="d-flex gap-2">
            {year > 1900 ? (
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
        Year {year}
      </PageTitle>
      <YearReview year={year} />
    </>
  );
}
