import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '../../../../core/format.js';
import type { Paged } from '../../../../core/schemas.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { FormField } from '../../../components/form/form-field';
import { Pagination } from '../../../components/pagination';
import { notify } from '../../../components/toast/toast-store';
import { useUnits } from '../../../lib/units';
import type { EntryListParams } from '../api/get-entries';
import { useDeleteEntry } from '../api/delete-entry';
import { EntriesTable, type EntryRow } from './entries-table';

interface EntriesBrowserProps {
  /** The list to browse: the runner's own runs or everyone's. */
  useList: (params: EntryListParams) => UseQueryResult<Paged<EntryRow>>;
  editPath: (entry: EntryRow) => string;
  userPath?: (userId: number) => string;
  /** Shown above the table, e.g. the 'Add new Entry' button. */
  toolbar?: ReactNode;
}

function readParams(search: URLSearchParams): EntryListParams {
  const page = Number(search.get('page'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    dateFrom: search.get('dateFrom') || undefined,
    dateTo: search.get('dateTo') || undefined,
  };
}

function toSearch(params: EntryListParams): Record<string, string> {
  const search: Record<string, string> = {};
  if (params.page > 1) search.page = String(params.page);
  if (params.dateFrom) search.dateFrom = params.dateFrom;
  if (params.dateTo) search.dateTo = params.dateTo;
  return search;
}

/**
 * Date filters, 'Page X of Y', the entries table, pagination and delete: the
 * runner's Time Entries and the admin's Entries screens. Filters and page live
 * in the URL, so Back and reload keep them.
 */
export function EntriesBrowser({ useList, editPath, userPath, toolbar }: EntriesBrowserProps) {
  const [search, setSearch] = useSearchParams();
  const params = readParams(search);
  const list = useList(params);
  const { confirm, dialog } = useConfirm();
  const units = useUnits();
  const remove = useDeleteEntry({ onSuccess: () => notify('Entry was deleted!', 'success') });

  const go = (next: EntryListParams) => setSearch(toSearch(next));

  const filter = (range: DateRange) =>
    go({ page: 1, dateFrom: range.dateFrom || undefined, dateTo: range.dateTo || undefined });

  const clear = () => {
    if (params.page === 1 && !params.dateFrom && !params.dateTo) void list.refetch();
    else go({ page: 1 });
  };

  const onDelete = async (entry: EntryRow) => {
    const distance = `${units.runDistance(entry.distance)} ${units.labels.distance}`;
    if (await confirm(`Delete the entry of ${formatDate(entry.date)} (${distance}, ${entry.time})?`)) {
      remove.mutate(entry.id);
    }
  };

  const paged = list.data;
  // A page emptied by deletions: show the last page that still has runs.
  const pastTheEnd = paged && paged.data.length === 0 && paged.current_page > Math.max(1, paged.last_page);
  useEffect(() => {
    if (!pastTheEnd || !paged) return;
    const next = { ...readParams(search), page: paged.last_page };
    setSearch(toSearch(next), { replace: true });
  }, [pastTheEnd, paged, search, setSearch]);

  return (
    <>
      <DateFilter
        key={`${params.dateFrom ?? ''}|${params.dateTo ?? ''}`}
        initial={{ dateFrom: params.dateFrom ?? '', dateTo: params.dateTo ?? '' }}
        onFilter={filter}
        onClear={clear}
      />
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <p className="mb-0" aria-live="polite">
          {paged ? `Page ${paged.current_page} of ${Math.max(1, paged.last_page)}` : '\u00a0'}
        </p>
        {toolbar}
      </div>
      {paged ? (
        <>
          <EntriesTable entries={paged.data} editPath={editPath} userPath={userPath} onDelete={onDelete} />
          {paged.last_page > 1 ? (
            <Pagination
              label="Entries pages"
              last={paged.last_page}
              current={paged.current_page}
              onSelect={(page) => go({ ...params, page })}
            />
          ) : null}
        </>
      ) : list.isError ? (
        <p className="text-danger">The entries could not be loaded.</p>
      ) : null}
      {dialog}
    </>
  );
}

interface DateRange {
  dateFrom: string;
  dateTo: string;
}

/** From and To dates; Filter applies them from page 1, Clear empties both and reloads. */
function DateFilter({
  initial,
  onFilter,
  onClear,
}: {
  initial: DateRange;
  onFilter: (range: DateRange) => void;
  onClear: () => void;
}) {
  const [range, setRange] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilter(range);
  };
  const clear = () => {
    setRange({ dateFrom: '', dateTo: '' });
    onClear();
  };
  return (
    <form className="row g-2 align-items-end mb-3" onSubmit={submit} role="search" aria-label="Filter entries by date">
      <div className="col-6 col-md-3">
        <FormField
          label="From"
          type="date"
          name="dateFrom"
          className=""
          value={range.dateFrom}
          onValueChange={(dateFrom) => setRange((old) => ({ ...old, dateFrom }))}
          max={range.dateTo || undefined}
        />
      </div>
      <div className="col-6 col-md-3">
        <FormField
          label="To"
          type="date"
          name="dateTo"
          className=""
          value={range.dateTo}
          onValueChange={(dateTo) => setRange((old) => ({ ...old, dateTo }))}
          min={range.dateFrom || undefined}
        />
      </div>
      <div className="col-auto">
        <button type="submit" className="btn btn-primary me-2">
          Filter
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}
