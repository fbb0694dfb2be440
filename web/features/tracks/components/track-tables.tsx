/**
 * The tables of a run's page (CONTRACT.md §14): splits in the runner's unit, the device's laps, best
 * efforts and heart-rate zones. Each is a `<table>` named by its caption, one `<tbody>` row per
 * item and its totals in `<tfoot>`; a column whose channel the track lacks is left out.
 */
import type { ReactNode } from 'react';
import runTexts from 'virtual:i18n/run';
import { decimal } from '../../../../core/format.js';
import type {
  BestEffortRow,
  TrackElevation,
  TrackHeartRate,
  TrackLap,
  TrackSplit,
} from '../../../../core/tracks/schemas.js';
import {
  formatElevation,
  formatElevationChange,
  formatMetres,
  formatSeconds,
  paceOf,
  uncoveredPart,
  agreedTotals,
  type RunNumbers,
  type TrackDisplay,
} from './track-format';
import { splitAround, t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';

/**
 * A table that scrolls sideways inside its own box when the screen is narrower than its columns;
 * the box takes the keyboard's focus so that it can be scrolled without a pointer.
 */
function TrackTable({ name, head, body, foot }: { name: string; head: ReactNode; body: ReactNode; foot?: ReactNode }) {
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label={name}>
      <table className="table table-sm table-striped align-middle mb-0 track-table">
        <caption className="visually-hidden">{name}</caption>
        <thead>{head}</thead>
        <tbody>{body}</tbody>
        {foot ? <tfoot className="fw-semibold">{foot}</tfoot> : null}
      </table>
    </div>
  );
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** The whole distance and timer time of consecutive stretches (splits, laps). */
const totalOf = (stretches: readonly { distance: number; time: number }[]) => ({
  distance: sum(stretches.map((stretch) => stretch.distance)),
  time: sum(stretches.map((stretch) => stretch.time)),
});

/** The headers of `StretchCells`. */
function StretchHeaders({ display }: { display: TrackDisplay }) {
  useT(runTexts);
  return (
    <>
      <th scope="col">{t('run.table.distance', { unit: display.labels.distance })}</th>
      <th scope="col">{t('run.table.time')}</th>
      <th scope="col">{t('run.table.pace', { unit: display.labels.pace })}</th>
    </>
  );
}

/** A stretch's distance, timer time and pace: the cells splits and laps share, their totals too. */
function StretchCells({ metres, seconds, display }: { metres: number; seconds: number; display: TrackDisplay }) {
  return (
    <>
      <td>{formatMetres(metres, display.units)}</td>
      <td>{formatSeconds(seconds)}</td>
      <td>{display.formatPace(paceOf(metres, seconds))}</td>
    </>
  );
}

/** The totals' cells: the run's own numbers where the stretches add up to them (`agreedTotals`). */
function AgreedTotalCells({
  run,
  metres,
  seconds,
  display,
}: {
  run: RunNumbers | undefined;
  metres: number;
  seconds: number;
  display: TrackDisplay;
}) {
  const totals = agreedTotals(run, { metres, seconds });
  return <StretchCells metres={totals.metres} seconds={totals.seconds} display={display} />;
}

/**
 * Splits every kilometre or every mile, as the runner reads distances; the last one, shorter, shows
 * its real length. Totals: the whole distance, the timer time, its pace and the net climb.
 */
export function SplitsTable({
  splits,
  display,
  averageHeartRate,
  run,
}: {
  splits: { km: TrackSplit[]; mi: TrackSplit[] };
  display: TrackDisplay;
  /** The run's weighted mean heart rate, for the totals. */
  averageHeartRate: number | null;
  /** The run's own numbers (the page's header): where the track covers less, the totals add the rest. */
  run?: RunNumbers | undefined;
}) {
  useT(runTexts);
  const rows = splits[display.units];
  const withElevation = rows.some((split) => split.elevation_change !== null);
  const withHeartRate = rows.some((split) => split.heart_rate !== null);
  const { distance, time } = totalOf(rows);
  const rest = run ? uncoveredPart(run, { metres: distance, seconds: time }) : null;
  // Short headings: "Elev. (m)", "HR (bpm)", the abbreviation where each language puts it.
  const elevationHead = splitAround(
    (key, values) => t(key, { ...values, unit: display.labels.elevation }),
    'run.splits.elevationHead',
    'abbr',
  );
  const heartRateHead = splitAround(
    (key, values) => t(key, { ...values, unit: display.labels.heartRate }),
    'run.splits.heartRateHead',
    'abbr',
  );
  const emptyCells = (
    <>
      {withElevation ? <td /> : null}
      {withHeartRate ? <td /> : null}
    </>
  );
  return (
    <TrackTable
      name={t('run.splits.name')}
      head={
        <tr>
          <th scope="col">{display.units === 'mi' ? t('run.splits.mile') : t('run.splits.km')}</th>
          <StretchHeaders display={display} />
          {/* Short headings: six columns fit a 375 px phone. */}
          {withElevation ? (
            <th scope="col">
              {elevationHead[0]}
              <abbr title={t('run.splits.elevationTitle')}>{t('run.splits.elevationAbbr')}</abbr>
              {elevationHead[1]}
            </th>
          ) : null}
          {withHeartRate ? (
            <th scope="col">
              {heartRateHead[0]}
              <abbr title={t('run.splits.heartRateTitle')}>{t('run.splits.heartRateAbbr')}</abbr>
              {heartRateHead[1]}
            </th>
          ) : null}
        </tr>
      }
      body={rows.map((split) => (
        <tr key={split.index}>
          <th scope="row">{split.index}</th>
          <StretchCells metres={split.distance} seconds={split.time} display={display} />
          {withElevation ? (
            <td>
              {split.elevation_change === null ? '—' : formatElevationChange(split.elevation_change, display.units)}
            </td>
          ) : null}
          {withHeartRate ? <td>{split.heart_rate ?? '—'}</td> : null}
        </tr>
      ))}
      foot={
        <>
          <tr>
            <th scope="row">{rest ? t('run.splits.track') : t('run.table.total')}</th>
            {rest ? (
              <StretchCells metres={distance} seconds={time} display={display} />
            ) : (
              <AgreedTotalCells run={run} metres={distance} seconds={time} display={display} />
            )}
            {withElevation ? (
              <td>{formatElevationChange(sum(rows.map((split) => split.elevation_change ?? 0)), display.units)}</td>
            ) : null}
            {withHeartRate ? <td>{averageHeartRate ?? '—'}</td> : null}
          </tr>
          {rest ? (
            <>
              <tr className="fw-normal">
                <th scope="row">{t('run.splits.notInTrack')}</th>
                <td>{formatMetres(rest.metres, display.units)}</td>
                <td>{rest.seconds > 0 ? formatSeconds(rest.seconds) : '—'}</td>
                <td>{rest.seconds > 0 ? display.formatPace(paceOf(rest.metres, rest.seconds)) : '—'}</td>
                {emptyCells}
              </tr>
              <tr>
                <th scope="row">{t('run.table.total')}</th>
                <StretchCells metres={rest.runMetres} seconds={rest.runSeconds} display={display} />
                {emptyCells}
              </tr>
            </>
          ) : null}
        </>
      }
    />
  );
}

/**
 * Says so where the track covers less of the run than its numbers: how much it covers, and that
 * the charts, splits and best efforts leave the rest out. Nothing where it covers the run.
 */
export function TrackCoverage({
  splits,
  display,
  run,
}: {
  splits: { km: TrackSplit[]; mi: TrackSplit[] };
  display: TrackDisplay;
  run: RunNumbers;
}) {
  const { distance, time } = totalOf(splits.km);
  useT(runTexts);
  const rest = uncoveredPart(run, { metres: distance, seconds: time });
  if (!rest) return null;
  const km = (metres: number) => formatMetres(metres, display.units);
  return (
    <p className="alert alert-info" role="note">
      {t('run.coverage', {
        covered: km(distance),
        run: km(rest.runMetres),
        rest: km(rest.metres),
        unit: display.labels.distance,
      })}
    </p>
  );
}

/** The laps the device recorded (the lap button, or its auto-lap), with their timer times. */
export function LapsTable({
  laps,
  display,
  run,
}: {
  laps: TrackLap[];
  display: TrackDisplay;
  /** The run's own numbers (the page's header), which the totals show where the laps add up to them. */
  run?: RunNumbers | undefined;
}) {
  useT(runTexts);
  const { distance, time } = totalOf(laps);
  return (
    <TrackTable
      name={t('run.laps.name')}
      head={
        <tr>
          <th scope="col">{t('run.laps.lap')}</th>
          <th scope="col">{t('run.laps.startedAt')}</th>
          <StretchHeaders display={display} />
        </tr>
      }
      body={laps.map((lap) => (
        <tr key={lap.index}>
          <th scope="row">{lap.index}</th>
          <td>{formatSeconds(lap.start)}</td>
          <StretchCells metres={lap.distance} seconds={lap.time} display={display} />
        </tr>
      ))}
      foot={
        <tr>
          <th scope="row" colSpan={2}>
            {t('run.table.total')}
          </th>
          <AgreedTotalCells run={run} metres={distance} seconds={time} display={display} />
        </tr>
      }
    />
  );
}

/** The name of a standard distance ("5 km", "Half marathon"), or its key if this app does not know it. */
export function effortName(key: string): string {
  switch (key) {
    case '1k':
    case '5k':
    case '10k':
    case '15k':
    case '30k':
    case '50k':
      return t('run.efforts.km', { km: Number(key.slice(0, -1)) });
    case '1mi':
      return t('run.efforts.mile');
    case '10mi':
      return t('run.efforts.tenMiles');
    case 'half':
      return t('run.efforts.half');
    case 'marathon':
      return t('run.efforts.marathon');
    default:
      return key;
  }
}

/** The fastest stretch of each standard distance inside the run, and where along the run it started. */
export function BestEffortsTable({
  efforts,
  display,
  marked = null,
}: {
  efforts: BestEffortRow[];
  display: TrackDisplay;
  /** The key of an effort to mark (the one a record links to). */
  marked?: string | null;
}) {
  useT(runTexts);
  return (
    <TrackTable
      name={t('run.efforts.title')}
      head={
        <tr>
          <th scope="col">{t('run.efforts.distance')}</th>
          <th scope="col">{t('run.table.time')}</th>
          <th scope="col">{t('run.table.pace', { unit: display.labels.pace })}</th>
          <th scope="col">{t('run.efforts.startedAt', { unit: display.labels.distance })}</th>
        </tr>
      }
      body={efforts.map((effort) => (
        <tr
          key={effort.key}
          className={effort.key === marked ? 'table-active' : undefined}
          aria-current={effort.key === marked ? 'true' : undefined}
        >
          <th scope="row">{effortName(effort.key)}</th>
          <td>{effort.time}</td>
          <td>{display.formatPace(effort.pace)}</td>
          <td>{formatMetres(effort.start, display.units)}</td>
        </tr>
      ))}
    />
  );
}

/** A share of a total as a percentage with one decimal; "—" when the total is nothing. */
function formatShare(part: number, total: number): string {
  return total > 0 ? t('run.zones.share', { value: decimal((100 * part) / total, 1) }) : '—';
}

/**
 * Time in each heart-rate zone, drawn from `max_used`. The rows are the five zones; below zone 1,
 * the total and TRIMP are summaries of them, in the footer.
 */
export function HeartRateZonesTable({ heartRate }: { heartRate: TrackHeartRate }) {
  useT(runTexts);
  const { labels } = useDisplay();
  const total = sum(heartRate.zones.map((zone) => zone.seconds)) + heartRate.below_zones;
  const firstFrom = heartRate.zones[0]?.from_bpm;
  return (
    <TrackTable
      name={t('run.zones.name')}
      head={
        <tr>
          <th scope="col">{t('run.zones.zone')}</th>
          <th scope="col">{t('run.zones.range', { unit: labels.heartRate })}</th>
          <th scope="col">{t('run.table.time')}</th>
          <th scope="col">{t('run.zones.shareHead')}</th>
        </tr>
      }
      body={heartRate.zones.map((zone) => (
        <tr key={zone.zone}>
          <th scope="row">{t('run.zones.row', { zone: zone.zone })}</th>
          <td>
            {zone.to_bpm === null ? t('run.zones.andAbove', { bpm: zone.from_bpm }) : `${zone.from_bpm}–${zone.to_bpm}`}
          </td>
          <td>{formatSeconds(zone.seconds)}</td>
          <td>{formatShare(zone.seconds, total)}</td>
        </tr>
      ))}
      foot={
        <>
          <tr className="fw-normal">
            <th scope="row">{t('run.zones.below')}</th>
            <td>{firstFrom === undefined ? '—' : t('run.zones.under', { bpm: firstFrom })}</td>
            <td>{formatSeconds(heartRate.below_zones)}</td>
            <td>{formatShare(heartRate.below_zones, total)}</td>
          </tr>
          <tr>
            <th scope="row">{t('run.table.total')}</th>
            <td />
            <td>{formatSeconds(total)}</td>
            <td>{total > 0 ? t('run.zones.share', { value: decimal(100, 1) }) : '—'}</td>
          </tr>
          <tr>
            <th scope="row">
              <abbr title={t('run.zones.trimpTitle')}>{t('run.zones.trimp')}</abbr>
            </th>
            <td colSpan={3}>{decimal(heartRate.trimp, 1)}</td>
          </tr>
        </>
      }
    />
  );
}

/** What the zones were drawn from, and the run's average and highest heart rate. */
export function HeartRateSummary({ heartRate }: { heartRate: TrackHeartRate }) {
  useT(runTexts);
  const fromProfile = heartRate.max_source === 'profile';
  const values = { avg: heartRate.avg ?? '—', max: heartRate.max, maxUsed: heartRate.max_used };
  return (
    <p className="small text-body-secondary">
      {fromProfile ? t('run.heartRate.fromProfile', values) : t('run.heartRate.fromTracks', values)}
    </p>
  );
}

/** Climb and descent, and whether the device counted them or this app did from the track's elevation. */
export function ElevationSummary({ elevation, units }: { elevation: TrackElevation; units: TrackDisplay['units'] }) {
  useT(runTexts);
  const unit = useDisplay().labels.elevation;
  return (
    <dl className="row mb-0">
      <div className="col-6 col-sm-4">
        <dt className="small text-body-secondary fw-normal">{t('run.elevation.gain')}</dt>
        <dd className="fs-5 fw-semibold mb-0">{formatElevation(elevation.gain, units, unit)}</dd>
      </div>
      <div className="col-6 col-sm-4">
        <dt className="small text-body-secondary fw-normal">{t('run.elevation.loss')}</dt>
        <dd className="fs-5 fw-semibold mb-0">{formatElevation(elevation.loss, units, unit)}</dd>
      </div>
      <div className="col-12 col-sm-4">
        <dt className="small text-body-secondary fw-normal">{t('run.elevation.source')}</dt>
        <dd className="mb-0">
          {elevation.source === 'device' ? t('run.elevation.fromDevice') : t('run.elevation.fromTrack')}
        </dd>
      </div>
    </dl>
  );
}
