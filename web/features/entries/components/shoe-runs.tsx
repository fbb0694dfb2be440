import { useSearchParams } from 'react-router';
import entries from 'virtual:i18n/entries';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { useShoeEntries } from '../api/get-shoe-entries';
import { EntriesTable } from './entries-table';

/** The runs of one shoe on its page, newest first, a page at a time (the page in the address). */
export function ShoeRuns({ shoeId }: { shoeId: number }) {
  const t = useT(entries);
  const [search, setSearch] = useSearchParams();
  const requested = Number(search.get('page'));
  const page = Number.isInteger(requested) && requested > 0 ? requested : 1;
  const runs = useShoeEntries(shoeId, page);
  return (
    <Panel title={t('entries.shoeRuns.title')}>
      {runs.isError ? (
        <p className="text-danger mb-0">{t('entries.runsLoadError')}</p>
      ) : !runs.data ? (
        <p className="text-body-secondary mb-0">{t('entries.loading')}</p>
      ) : runs.data.total === 0 ? (
        <p className="mb-0">{t('entries.shoeRuns.empty')}</p>
      ) : (
        <>
          <EntriesTable entries={runs.data.data} />
          {runs.data.last_page > 1 ? (
            <Pagination
              label={t('entries.shoeRuns.pages')}
              last={runs.data.last_page}
              current={runs.data.current_page}
              onSelect={(next) => setSearch(next > 1 ? { page: String(next) } : {})}
            />
          ) : null}
        </>
      )}
    </Panel>
  );
}
