/**
 * The map of every run (CONTRACT.md §16): every tracked run's route as a faint line on one map,
 * a year filter, a click on a line opening that run; and, for the keyboard, the same runs as links.
 */
import { useCallback, useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import heatmapTexts from 'virtual:i18n/heatmap';
import mapTexts from 'virtual:i18n/map';
import type { RouteRun } from '../../../../core/tracks/schemas.js';
import { splitAround, useT } from '../../../i18n/runtime';
import { useMapConfig } from '../api/get-map-config';
import { useRoutes } from '../api/get-routes';
import { LazyRoutesMap } from './lazy-maps';
import { formatMetres, type TrackDisplay } from './track-format';

export interface RoutesDisplay extends TrackDisplay {
  /** A `YYYY-MM-DD` date in the runner's format. */
  formatDate(ymd: string): string;
}

/** The years that have tracked runs, newest first, and the one shown even when it has none. */
export function yearsOf(runs: readonly RouteRun[], shown: number | null): number[] {
  const years = new Set(runs.map((run) => Number(run.date.slice(0, 4))));
  if (shown !== null) years.add(shown);
  return [...years].sort((a, b) => b - a);
}

export function runPath(entryId: number): string {
  return `/entry/${entryId}`;
}

export function EveryRoute({
  year,
  onYearChange,
  display,
}: {
  /** The calendar year shown, or null for all years. */
  year: number | null;
  onYearChange: (year: number | null) => void;
  display: RoutesDisplay;
}) {
  const t = useT(mapTexts);
  const th = useT(heatmapTexts);
  const selectId = useId();
  const modeName = useId();
  const [mode, setMode] = useState<'lines' | 'heat'>('lines');
  const navigate = useNavigate();
  const shown = useRoutes(year);
  // All years' answer lists the years to choose from (and is the map itself without a filter).
  const everyYear = useRoutes(null);
  const tiles = useMapConfig();
  const { formatDate, units } = display;
  const distanceLabel = display.labels.distance;
  const describe = useCallback(
    (run: RouteRun) =>
      t('map.runLine', {
        date: formatDate(run.date),
        distance: formatMetres(run.distance * 1000, units),
        unit: distanceLabel,
      }),
    // `t` reads the language of the moment; `formatDate` changes with it.
    [t, formatDate, units, distanceLabel],
  );
  const onOpen = useCallback((entryId: number) => void navigate(runPath(entryId)), [navigate]);
  const years = useMemo(() => yearsOf(everyYear.data?.runs ?? [], year), [everyYear.data, year]);

  if (shown.isError) return <p className="text-danger">{t('map.loadError')}</p>;
  if (!shown.data || tiles.isPending) return <p className="text-body-secondary">{t('map.loading')}</p>;
  if (everyYear.data && everyYear.data.runs.length === 0) {
    const [beforeLink, afterLink] = splitAround(t, 'map.empty', 'link');
    return (
      <p className="lead">
        {beforeLink}
        <Link to="/data">{t('map.emptyLink')}</Link>
        {afterLink}
      </p>
    );
  }
  const routes = shown.data;
  const totalMetres = routes.runs.reduce((sum, run) => sum + run.distance * 1000, 0);
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <div>
          <label htmlFor={selectId} className="form-label">
            {t('map.year')}
          </label>
          <select
            id={selectId}
            className="form-select"
            value={year ?? ''}
            onChange={(event) => onYearChange(event.target.value ? Number(event.target.value) : null)}
          >
            <option value="">{t('map.allYears')}</option>
            {years.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="mb-0">
          <legend className="form-label fs-6 mb-2">{th('heatmap.show')}</legend>
          <div className="btn-group" role="group">
            <input
              type="radio"
              className="btn-check"
              name={modeName}
              id={`${modeName}-lines`}
              checked={mode === 'lines'}
              onChange={() => setMode('lines')}
            />
            <label className="btn btn-outline-primary" htmlFor={`${modeName}-lines`}>
              {th('heatmap.lines')}
            </label>
            <input
              type="radio"
              className="btn-check"
              name={modeName}
              id={`${modeName}-heat`}
              checked={mode === 'heat'}
              onChange={() => setMode('heat')}
            />
            <label className="btn btn-outline-primary" htmlFor={`${modeName}-heat`}>
              {th('heatmap.heat')}
            </label>
          </div>
        </fieldset>
        <p className="mb-0 text-body-secondary" aria-live="polite">
          {t('map.summary', {
            count: routes.runs.length,
            distance: formatMetres(totalMetres, units),
            unit: distanceLabel,
          })}
        </p>
      </div>
      {routes.bounds && routes.runs.length > 0 ? (
        <LazyRoutesMap
          runs={routes.runs}
          bounds={routes.bounds}
          tiles={tiles.data ?? null}
          describe={describe}
          onOpen={onOpen}
          mode={mode}
        />
      ) : (
        <p>{t('map.emptyYear', { year: year ?? '' })}</p>
      )}
      {routes.runs.length > 0 ? <RunLinks runs={routes.runs} describe={describe} /> : null}
    </>
  );
}

/** The map's runs as links, newest first, written out only once opened (there may be thousands). */
function RunLinks({ runs, describe }: { runs: RouteRun[]; describe: (run: RouteRun) => string }) {
  const t = useT(mapTexts);
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-3" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('map.runLinks')}</summary>
      {open ? (
        <ul className="list-unstyled mt-2 mb-0 every-route-list">
          {[...runs].reverse().map((run) => (
            <li key={run.entry_id}>
              <Link to={runPath(run.entry_id)}>{describe(run)}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
