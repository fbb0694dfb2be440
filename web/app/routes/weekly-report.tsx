import { useSearchParams } from 'react-router';
import reports from 'virtual:i18n/reports';
import { PageTitle } from '../../components/page-title';
import { WeeklyReport } from '../../features/reports/components/weekly-report';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(reports);
  const [search, setSearch] = useSearchParams();
  const requested = Number(search.get('year'));
  const year =
    Number.isInteger(requested) && requested >= 1900 && requested <= 2100 ? requested : new Date().getFullYear();
  return (
    <>
      <PageTitle title={t('reports.weekly.title')}>{t('reports.weekly.title')}</PageTitle>
      <WeeklyReport year={year} onYearChange={(next) => setSearch({ year: String(next) })} />
    </>
  );
}
