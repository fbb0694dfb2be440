import type { ReactNode } from 'react';
import type { Entry } from '../../../../core/schemas.js';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { KIND_LABELS } from './entry-extras';

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="col-6 col-md-4 mb-3">
      <dt className="small text-body-secondary fw-normal">{term}</dt>
      <dd className="fs-5 fw-semibold mb-0 text-nowrap">{children}</dd>
    </div>
  );
}

/** A run's numbers: date, distance, time, speed and pace, in the runner's units and formats. */
export function RunNumbers({ entry }: { entry: Entry }) {
  const display = useDisplay();
  return (
    <Panel title="Numbers">
      <dl className="row mb-0">
        <Item term="Date">{display.formatDate(entry.date)}</Item>
        <Item term={`Distance (${display.labels.distance})`}>{display.runDistance(entry.distance)}</Item>
        <Item term="Time">{entry.time}</Item>
        <Item term={`Avg. Speed (${display.labels.speed})`}>{display.formatSpeed(entry.speed)}</Item>
        <Item term={`Avg. Pace (${display.labels.pace})`}>{display.runPace(entry)}</Item>
      </dl>
    </Panel>
  );
}

/** What the runner wrote about a run: title, kind, effort, shoe and notes. */
export function RunAbout({ entry, shoe }: { entry: Entry; shoe: string }) {
  const rows: [string, ReactNode][] = [
    ['Title', entry.title ?? 'No title'],
    ['Kind', entry.kind ? KIND_LABELS[entry.kind] : 'Not set'],
    ['Effort', entry.effort === null ? 'Not rated' : `${entry.effort} of 10`],
    ['Shoe', shoe],
  ];
  return (
    <Panel title="About this run">
      <dl className="row mb-0">
        {rows.map(([term, value]) => (
          <div key={term} className="col-sm-6 mb-3">
            <dt className="small text-body-secondary fw-normal">{term}</dt>
            <dd className="mb-0 cell-text">{value}</dd>
          </div>
        ))}
        <div className="col-12">
          <dt className="small text-body-secondary fw-normal">Notes</dt>
          <dd className="mb-0 text-pre-line cell-text">{entry.notes ?? 'No notes'}</dd>
        </div>
      </dl>
    </Panel>
  );
}

/**
 * What every run has, one `<section>` per block (Panel): its numbers, then what the runner wrote.
 * The blocks of a recorded track (map, charts, splits) follow these on the run's page.
 */
export function RunDetails({ entry, shoe }: { entry: Entry; shoe: string }) {
  return (
    <>
      <RunNumbers entry={entry} />
      <RunAbout entry={entry} shoe={shoe} />
    </>
  );
}

/** The title a run's page shows: its own, or its date. */
export function runHeading(entry: Pick<Entry, 'title' | 'date'>, formatDate: (ymd: string) => string): string {
  return entry.title ?? `Run of ${formatDate(entry.date)}`;
}
