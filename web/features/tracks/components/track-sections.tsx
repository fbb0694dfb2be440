/**
 * The blocks a recorded track adds to a run's page (CONTRACT.md §14): the route map, the charts,
 * splits, laps, best efforts, elevation, heart-rate zones and the files. The page renders
 * `TrackSections` below the run's numbers and hands it what the runner wrote (`afterMap`), which shows
 * right after the route map; a run without a track shows nothing more.
 */
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import runTexts from 'virtual:i18n/run';
import type { RunTrack } from '../../../../core/tracks/schemas.js';
import { Panel } from '../../../components/panel';
import { useMapConfig } from '../api/get-map-config';
import { t, useT } from '../../../i18n/runtime';
import { useDrawnInSlices } from '../../../lib/drawn-in-slices';
import { useTrack } from '../../../lib/track-api';
import { LazyRouteMap } from './lazy-maps';
import { decodeRoute, routeLine, spotOnRoute, stretchAlong } from './route-geometry';
import { TrackCharts, type StretchMarking } from './track-charts';
import { TrackDownloads } from './track-downloads';
import type { RunNumbers, TrackDisplay } from './track-format';
import {
  BestEffortsTable,
  ElevationSummary,
  HeartRateSummary,
  HeartRateZonesTable,
  LapsTable,
  SplitsTable,
  TrackCoverage,
} from './track-tables';

/** Loads a run's track and shows its blocks; nothing for a run without one. */
export function TrackSections({
  entryId,
  display,
  effort,
  run,
  afterMap = null,
  afterCharts = null,
  marking = null,
}: {
  entryId: number;
  display: TrackDisplay;
  /** What the page shows right after the charts (the run's route and segments). */
  afterCharts?: ReactNode;
  /** A stretch being marked as a segment, shaded on the charts and the map. */
  marking?: StretchMarking | null;
  /** A best effort to show first (a record's link names it: `?effort=5k`). */
  effort?: string | null;
  /** The run's own numbers (the page's header), to say where the track covers less of the run. */
  run?: RunNumbers | undefined;
  /** What the page shows right after the route map (before the charts and tables), or first without a map. */
  afterMap?: ReactNode;
}) {
  useT(runTexts);
  const { data: track, isPending, isError, refetch, isFetching } = useTrack(entryId);
  const ready = useDrawnInSlices(!isPending);
  if (isPending || !ready) {
    return (
      <>
        {afterMap}
        <p className="text-body-secondary" role="status">
          {t('run.track.loading')}
        </p>
      </>
    );
  }
  if (isError) {
    return (
      <>
        {afterMap}
        <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
          <span>{t('run.track.loadError')}</span>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={isFetching}
            onClick={() => void refetch()}
          >
            {t('run.track.retry')}
          </button>
        </div>
      </>
    );
  }
  if (track === null) return <>{afterMap}</>;
  return (
    <TrackBlocks
      track={track}
      display={display}
      effort={effort ?? null}
      run={run}
      afterMap={afterMap}
      afterCharts={afterCharts}
      marking={marking}
    />
  );
}

/** The names of the charts a track has, for their panel's title: "Pace, elevation and heart rate". */
function chartsTitle(track: RunTrack): string {
  const elevation = Boolean(track.series?.elevation);
  const heartRate = Boolean(track.series?.heart_rate);
  const channels = elevation && heartRate ? 'both' : elevation ? 'elevation' : heartRate ? 'heartRate' : 'pace';
  return t('run.charts.title', { channels });
}

/** Each block where the track has what it shows. The charts' hover is kept here, for the map too. */
export function TrackBlocks({
  track,
  display,
  effort = null,
  run,
  afterMap = null,
  afterCharts = null,
  marking = null,
}: {
  track: RunTrack;
  display: TrackDisplay;
  effort?: string | null;
  run?: RunNumbers | undefined;
  afterMap?: ReactNode;
  afterCharts?: ReactNode;
  marking?: StretchMarking | null;
}) {
  useT(runTexts);
  const [spot, setSpot] = useState<number | null>(null);
  const points = useMemo(() => (track.route ? decodeRoute(track.route) : null), [track.route]);
  const line = useMemo(() => (points ? routeLine(points) : null), [points]);
  const distances = track.series?.distance;
  const marker = useMemo(() => spotOnRoute(line, distances ?? [], spot), [line, distances, spot]);
  const range = marking?.range ?? null;
  const highlight = useMemo(() => {
    if (!line || !range || range.end_m === null || !distances || distances.length < 2) return null;
    const span = distances[distances.length - 1]! - distances[0]!;
    return span > 0 ? stretchAlong(line, range.start_m / span, range.end_m / span) : null;
  }, [line, range, distances]);

  const blocks: ReactNode[] = [];
  if (run && track.splits.km.length > 0) {
    blocks.push(<TrackCoverage key="coverage" splits={track.splits} display={display} run={run} />);
  }
  if (points && track.bounds) {
    blocks.push(
      <Panel key="map" title={t('run.route.title')}>
        <RouteMapWithTiles points={points} bounds={track.bounds} spot={marker} highlight={highlight} />
      </Panel>,
    );
  }
  if (afterMap) blocks.push(<Fragment key="after-map">{afterMap}</Fragment>);
  if (track.series && track.series.distance.length >= 2) {
    blocks.push(
      <Panel key="charts" title={chartsTitle(track)}>
        <TrackCharts track={track} display={display} spot={spot} onSpot={setSpot} marking={marking} />
      </Panel>,
    );
  }
  if (afterCharts) blocks.push(<Fragment key="after-charts">{afterCharts}</Fragment>);
  const tables: ReactNode[] = [];
  if (track.splits[display.units].length > 0) {
    tables.push(
      <Panel key="splits" title={display.units === 'mi' ? t('run.splits.titleMile') : t('run.splits.titleKm')} flush>
        <SplitsTable
          splits={track.splits}
          display={display}
          averageHeartRate={track.heart_rate?.avg ?? null}
          run={run}
        />
      </Panel>,
    );
  }
  if (track.laps.length > 0) {
    tables.push(
      <Panel key="laps" title={t('run.laps.title')} flush>
        <LapsTable laps={track.laps} display={display} run={run} />
      </Panel>,
    );
  }
  if (track.has.distance) {
    tables.push(
      <Panel key="efforts" title={t('run.efforts.title')} flush={track.best_efforts.length > 0}>
        {track.best_efforts.length > 0 ? (
          <BestEffortsTable efforts={track.best_efforts} display={display} marked={effort ?? null} />
        ) : (
          <p className="mb-0 text-body-secondary">{t('run.efforts.none')}</p>
        )}
      </Panel>,
    );
  }
  if (track.heart_rate) {
    tables.push(
      <Panel key="heart-rate" title={t('run.heartRate.title')}>
        <HeartRateSummary heartRate={track.heart_rate} />
        <HeartRateZonesTable heartRate={track.heart_rate} />
      </Panel>,
    );
  }
  if (track.elevation) {
    tables.push(
      <Panel key="elevation" title={t('run.elevation.title')}>
        <ElevationSummary elevation={track.elevation} units={display.units} />
      </Panel>,
    );
  }
  return (
    <div className="track-sections">
      {blocks}
      <div className="row">
        {tables.map((table, k) => (
          <div key={k} className="col-lg-6">
            {table}
          </div>
        ))}
      </div>
      <Panel title={t('run.files.title')}>
        <TrackDownloads entryId={track.entry_id} hasPositions={track.has.position} />
      </Panel>
    </div>
  );
}

/** The route map once the server has said which tiles to draw under it. */
function RouteMapWithTiles(props: Omit<Parameters<typeof LazyRouteMap>[0], 'tiles'>) {
  const { data: tiles, isPending } = useMapConfig();
  if (isPending) return <div className="track-map chart-placeholder" aria-hidden="true" />;
  return <LazyRouteMap {...props} tiles={tiles ?? null} />;
}
