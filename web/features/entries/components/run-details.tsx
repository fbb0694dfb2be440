import type { ReactNode } from 'react';
import { Link } from 'react-router';
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

/** A run's numbers: date, distance, time, speed, pace and (from a track) cadence, in the runner's units and formats. */
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
        {entry.avg_cadence !== null ? <Item term="Cadence (spm)">{entry.avg_cadence}</Item> : null}
      </dl>
    </Panel>
  );
}

/**
 * What the runner wrote about a run: title, kind, effort, shoe and notes. Only what was written is
 * shown; what was not is named once, in a line that leads to the run's form to add it.
 */
export function RunAbout({ entry, shoe, editPath }: { entry: Entry; shoe: string | null; editPath: string }) {
  const rows: [string, ReactNode | null][] = [
    ['Title', entry.title],
    ['Kind', entry.kind ? KIND_LABELS[entry.kind] : null],
    ['Effort', entry.effort === null ? null : `${entry.effort} of 10`],
    ['Shoe', shoe],
  ];
  const written = rows.filter((row): row is [string, ReactNode] => row[1] !== null);
  const missing = [...rows.filter(([, value]) => value === null).map(([term]) => term.toLowerCase())];
  if (entry.notes === null) missing.push('notes');
  const add =
    missing.length === 0 ? null : (
      <p className="mb-0 small text-body-secondary">
        No {listOf(missing)} yet. <Link to={editPath}>Add {missing.length === 1 ? 'it' : 'them'}</Link>
      </p>
    );
  if (written.length === 0 && entry.notes === null) {
    return (
      <section aria-label="About this run" className="mb-4">
        {add}
      </section>
    );
  }
  return (
    <Panel title="About this run">
      <dl className="row mb-0">
        {written.map(([term, value]) => (
          <div key={term} className="col-sm-6 mb-3">
            <dt className="small text-body-secondary fw-normal">{term}</dt>
            <dd className="mb-0 cell-text">{value}</dd>
          </div>
        ))}
        {entry.notes !== null ? (
          <div className="col-12 mb-3">
            <dt className="small text-body-secondary fw-normal">Notes</dt>
            <dd className="mb-0 text-pre-line cell-text">{entry.notes}</dd>
          </div>
        ) : null}
      </dl>
      {add}
    </Panel>
  );
}

/** "title", "title and kind", "title, kind and notes". */
function listOf(words: string[]): string {
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The title a run's page shows: its own, or its date. */
export function runHeading(entry: Pick<Entry, 'title' | 'date'>, formatDate: (ymd: string) => string): string {
  return entry.title ?? `Run of ${formatDate(entry.date)}`;
}
