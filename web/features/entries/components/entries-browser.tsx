import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import entries from 'virtual:i18n/entries';
import { ENTRY_SORTS, type EntriesSummary, type EntrySort, type Paged } from '../../../../core/schemas.js';
import { formatDuration } from '../../../../core/time.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { FormField } from '../../../components/form/form-field';
import { Pagination } from '../../../components/pagination';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runPagePath, type RunPlace } from '../../../lib/run-paths';
import { takeAddedRun } from '../added-run';
import { useDeleteEntry } from '../api/delete-entry';
import type { EntryListParams } from '../api/get-entries';
import { EntriesTable, type EntryRow } from './entries-table';

/** A page of a list, and for the runner's own list the totals of every run of its filter. */
export interface EntryListPage {
  entries: Paged<EntryRow>;
  summary?: EntriesSummary;
}

interface EntriesBrowserProps {
  /** The list to browse: the runner's own runs or everyone's. */
  useList: (params: EntryListParams) => UseQueryResult<EntryListPage>;
  /** Whose pages the runs open: the runner's own, or the admin's. */
  place: RunPlace;
  userPath?: (userId: number) => string;
  /** Whether the list takes `sort` (the runner's own list, CONTRACT.md §18). */
  sortable?: boolean;
  /** The runner's shoes by id, for the Shoe column. */
  shoeName?: (shoeId: number) => string | undefined;
}

export const PAGE_SIZES = [15, 50, 100] as const;

/** The keys of the orders' names. */
const SORT_LABELS: Record<EntrySort, string> = {
  '-date': 'entries.sort.newest',
  date: 'entries.sort.oldest',
  '-distance': 'entries.sort.longestDistance',
  distance: 'entries.sort.shortestDistance',
  '-time': 'entries.sort.longestTime',
  time: 'entries.sort.shortestTime',
  pace: 'entries.sort.fastestPace',
  '-pace': 'entries.sort.slowestPace',
};

function readParams(search: URLSearchParams, sortable: boolean): EntryListParams {
  const page = Number(search.get('page'));
  const perPage = PAGE_SIZES.find((size) => String(size) === search.get('per_page'));
  const sort = ENTRY_SORTS.find((value) => value === search.get('sort'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    perPage,
    dateFrom: search.get('dateFrom') || undefined,
    dateTo: search.get('dateTo') || undefined,
    sort: sortable ? sort : undefined,
  };
}

function toSearch(params: EntryListParams): Record<string, string> {
  const search: Record<string, string> = {};
  if (params.page > 1) search.page = String(params.page);
  if (params.perPage) search.per_page = String(params.perPage);
  if (params.dateFrom) search.dateFrom = params.dateFrom;
  if (params.dateTo) search.dateTo = params.dateTo;
  if (params.sort && params.sort !== '-date') search.sort = params.sort;
  return search;
}

/** The totals of the filtered period, above the table. */
function SummaryLine({ summary, filtered }: { summary: EntriesSummary; filtered: boolean }) {
  useT(entries);
  const display = useDisplay();
  const parts = [
    t('entries.summary.runs', { count: summary.runs }),
    t('entries.summary.distance', {
      distance: display.formatDistance(summary.distance),
      unit: display.labels.distance,
    }),
    formatDuration(summary.seconds),
    summary.avg_pace === null
      ? t('entries.summary.noAveragePace')
      : t('entries.summary.averagePace', { pace: display.formatPace(summary.avg_pace), unit: display.labels.pace }),
  ];
  return (
    <p className="mb-2" aria-label={t(filtered ? 'entries.summary.filteredLabel' : 'entries.summary.allLabel')}>
      <span className="fw-semibold">{t(filtered ? 'entries.summary.filtered' : 'entries.summary.all')} </span>
      {parts.join(' · ')}
    </p>
  );
}

/**
 * Date filters, totals, order and page size, 'Page X of Y', the entries table, pagination and
 * delete: the runner's Time Entries and the admin's Entries screens. Filters, order and page
 * live in the URL, so Back and reload keep them.
 */
export function EntriesBrowser({ useList, place, userPath, sortable = false, shoeName }: EntriesBrowserProps) {
  const [search, setSearch] = useSearchParams();
  const params = readParams(search, sortable);
  const list = useList(params);
  useT(entries);
  const { confirm, dialog } = useConfirm();
  const display = useDisplay();
  const remove = useDeleteEntry({ onSuccess: () => notify(t('entries.deleted'), 'success') });
  const [added, setAdded] = useState<{ id: number; date: string; cleared: boolean } | null>(null);

  const go = (next: EntryListParams) => setSearch(toSearch(next));
  const filtered = Boolean(params.dateFrom || params.dateTo);

  // A run just added on the New Entry screen: shown, and a filter that would hide it cleared (taken once).
  useEffect(() => {
    const run = takeAddedRun();
    if (!run) return;
    const current = readParams(search, sortable);
    const hidden = Boolean(
      (current.dateFrom && run.date < current.dateFrom) || (current.dateTo && run.date > current.dateTo),
    );
    setAdded({ ...run, cleared: hidden });
    if (hidden) setSearch(toSearch({ ...current, page: 1, dateFrom: undefined, dateTo: undefined }), { replace: true });
  }, [search, setSearch, sortable]);

  const filter = (range: DateRange) =>
    go({ ...params, page: 1, dateFrom: range.dateFrom || undefined, dateTo: range.dateTo || undefined });

  const clear = () => {
    if (params.page === 1 && !filtered) void list.refetch();
    else go({ ...params, page: 1, dateFrom: undefined, dateTo: undefined });
  };

  const onDelete = async (entry: EntryRow) => {
    const question = t('entries.deleteConfirm', {
      date: display.formatDate(entry.date),
      distance: display.runDistance(entry.distance),
      unit: display.labels.distance,
      time: entry.time,
    });
    if (await confirm(question)) {
      remove.mutate(entry.id);
    }
  };

  const paged = list.data?.entries;
  // A page emptied by deletions: show the last page that still has runs.
  const pastTheEnd = paged && paged.data.length === 0 && paged.current_page > Math.max(1, paged.last_page);
  useEffect(() => {
    if (!pastTheEnd || !paged) return;
    const next = { ...readParams(search, sortable), page: paged.last_page };
    setSearch(toSearch(next), { replace: true });
  }, [pastTheEnd, paged, search, setSearch, sortable]);

  return (
    <>
      <DateFilter
        key={`${params.dateFrom ?? ''}|${params.dateTo ?? ''}`}
        initial={{ dateFrom: params.dateFrom ?? '', dateTo: params.dateTo ?? '' }}
        onFilter={filter}
        onClear={clear}
      />
      {added ? (
        <div className="alert alert-success d-flex flex-wrap gap-2 align-items-baseline" role="status">
          <span>
            {t('entries.added', { date: display.formatDate(added.date) })}
            {added.cleared ? ` ${t('entries.addedFilterCleared')}` : ''}
          </span>
          <Link to={runPagePath(added.id, place)} className="alert-link">
            {t('entries.addedOpen')}
          </Link>
        </div>
      ) : null}
      {list.data?.summary ? <SummaryLine summary={list.data.summary} filtered={filtered} /> : null}
      <div className="d-flex flex-wrap justify-content-between align-items-end gap-2 mb-2">
        <p className="mb-0" aria-live="polite">
          {paged ? t('entries.pageOf', { page: paged.current_page, pages: Math.max(1, paged.last_page) }) : '\u00a0'}
        </p>
        <ListControls
          sort={sortable ? (params.sort ?? '-date') : null}
          perPage={params.perPage ?? PAGE_SIZES[0]}
          onChange={(change) => go({ ...params, ...change, page: 1 })}
        />
      </div>
      {paged ? (
        <>
          <EntriesTable
            entries={paged.data}
            place={place}
            userPath={userPath}
            shoeName={shoeName}
            onDelete={(entry) => void onDelete(entry)}
          />
          {paged.last_page > 1 ? (
            <Pagination
              label={t('entries.pages')}
              last={paged.last_page}
              current={paged.current_page}
              onSelect={(page) => go({ ...params, page })}
            />
          ) : null}
        </>
      ) : list.isError ? (
        <p className="text-danger">{t('entries.loadError')}</p>
      ) : null}
      {dialog}
    </>
  );
}

/** The order (when the list takes one) and how many runs a page shows. */
function ListControls({
  sort,
  perPage,
  onChange,
}: {
  sort: EntrySort | null;
  perPage: number;
  onChange: (change: Partial<EntryListParams>) => void;
}): ReactNode {
  useT(entries);
  return (
    <div className="d-flex flex-wrap gap-2">
      {sort ? (
        <FormField
          label={t('entries.sortBy')}
          name="sort"
          className=""
          value={sort}
          onValueChange={(value) => onChange({ sort: ENTRY_SORTS.find((s) => s === value) })}
          options={ENTRY_SORTS.map((value) => ({ value, label: t(SORT_LABELS[value]) }))}
        />
      ) : null}
      <FormField
        label={t('entries.perPage')}
        name="per_page"
        className=""
        value={String(perPage)}
        onValueChange={(value) => onChange({ perPage: PAGE_SIZES.find((size) => String(size) === value) })}
        options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
      />
    </div>
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
  useT(entries);
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
    <form
      className="row g-2 align-items-end mb-3"
      onSubmit={submit}
      role="search"
      aria-label={t('entries.filter.label')}
    >
      <div className="col-sm-6 col-md-3">
        <FormField
          label={t('entries.filter.from')}
          type="date"
          name="dateFrom"
          className=""
          value={range.dateFrom}
          onValueChange={(dateFrom) => setRange((old) => ({ ...old, dateFrom }))}
          max={range.dateTo || undefined}
        />
      </div>
      <div className="col-sm-6 col-md-3">
        <FormField
          label={t('entries.filter.to')}
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
          {t('entries.filter.submit')}
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={clear}>
          {t('entries.filter.clear')}
        </button>
      </div>
    </form>
  );
}
