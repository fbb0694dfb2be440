import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { EveryRoute } from '../../features/tracks/components/every-route';
import { useDisplay } from '../../lib/display';

/** `?year=`: a calendar year, or all years when absent or not a year. */
function yearOf(text: string | null): number | null {
  const year = Number(text);
  return text && Number.isInteger(year) && year >= 1900 && year <= 2100 ? year : null;
}

export function Component() {
  const [search, setSearch] = useSearchParams();
  const year = yearOf(search.get('year'));
  const display = useDisplay();
  return (
    <>
      <PageTitle title={year ? `Map of ${year}` : 'Map'}>Map of every run</PageTitle>
      <EveryRoute
        year={year}
        onYearChange={(next) => setSearch(next === null ? {} : { year: String(next) })}
        display={display}
      />
    </>
  );
}
