import { useSearchParams } from 'react-router';
import mapTexts from 'virtual:i18n/map';
import { PageTitle } from '../../components/page-title';
import { EveryRoute } from '../../features/tracks/components/every-route';
import { useT } from '../../i18n/runtime';
import { useDisplay } from '../../lib/display';

/** `?year=`: a calendar year, or all years when absent or not a year. */
function yearOf(text: string | null): number | null {
  const year = Number(text);
  return text && Number.isInteger(year) && year >= 1900 && year <= 2100 ? year : null;
}

export function Component() {
  const t = useT(mapTexts);
  const [search, setSearch] = useSearchParams();
  const year = yearOf(search.get('year'));
  const display = useDisplay();
  return (
    <>
      <PageTitle title={year ? t('map.titleYear', { year }) : t('map.title')}>{t('map.everyRun')}</PageTitle>
      <EveryRoute
        year={year}
        onYearChange={(next) => setSearch(next === null ? {} : { year: String(next) })}
        display={display}
      />
    </>
  );
}
