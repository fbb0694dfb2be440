import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { WeeklyReport } from '../../features/reports/components/weekly-report';

export function Component() {
  const [search, setSearch] = useSearchParams();
  const requested = Number(search.get('year'));
  const year =
    Number.isInteger(requested) && requested >= 1900 && requested <= 2100 ? requested : new Date().getFullYear();
  return (
    <>
      <PageTitle title="Weekly Report">Weekly Report</PageTitle>
      <WeeklyReport year={year} onYearChange={(next) => setSearch({ year: String(next) })} />
    </>
  );
}
