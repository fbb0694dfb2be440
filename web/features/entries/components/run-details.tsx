import type { ReactNode } from 'react';
import { Link } from 'react-router';
import entriesTexts from 'virtual:i18n/entries';
import runTexts from 'virtual:i18n/run';
import type { Entry } from '../../../../core/schemas.js';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { KIND_KEYS } from './entry-extras';

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
  useT(runTexts);
  const display = useDisplay();
  return (
    <Panel title={t('run.numbers.title')}>
      <dl className="row mb-0">
        <Item term={t('run.numbers.date')}>{display.formatDate(entry.date)}</Item>
        <Item term={t('run.numbers.distance', { unit: display.labels.distance })}>
          {display.runDistance(entry.distance)}
        </Item>
        <Item term={t('run.numbers.time')}>{entry.time}</Item>
        <Item term={t('run.numbers.speed', { unit: display.labels.speed })}>{display.formatSpeed(entry.speed)}</Item>
        <Item term={t('run.numbers.pace', { unit: display.labels.pace })}>{display.runPace(entry)}</Item>
        {entry.avg_cadence !== null ? <Item term={t('run.numbers.cadence')}>{entry.avg_cadence}</Item> : null}
      </dl>
    </Panel>
  );
}

/**
 * What the runner wrote about a run: title, kind, effort, shoe and notes. Only what was written is
 * shown; what was not is named once, in a line that leads to the run's form to add it. `shoe` is
 * its name (marked `translate="no"` by the page) or what stands for it.
 */
export function RunAbout({ entry, shoe, editPath }: { entry: Entry; shoe: ReactNode | null; editPath: string }) {
  useT(runTexts);
  useT(entriesTexts); // the kinds' names
  // Each row: its term, the word that names it when missing ("No title yet."), its value or null.
  const rows: [string, string, ReactNode | null][] = [
    [
      t('run.about.fieldTitle'),
      t('run.about.missingTitle'),
      entry.title === null ? null : <span translate="no">{entry.title}</span>,
    ],
    [t('run.about.kind'), t('run.about.missingKind'), entry.kind ? t(KIND_KEYS[entry.kind]) : null],
    [
      t('run.about.effort'),
      t('run.about.missingEffort'),
      entry.effort === null ? null : t('run.about.effortValue', { effort: entry.effort }),
    ],
    [t('run.about.shoe'), t('run.about.missingShoe'), shoe],
  ];
  const written = rows.filter((row): row is [string, string, ReactNode] => row[2] !== null);
  const missing = rows.filter(([, , value]) => value === null).map(([, word]) => word);
  if (entry.notes === null) missing.push(t('run.about.missingNotes'));
  const add =
    missing.length === 0 ? null : (
      <p className="mb-0 small text-body-secondary">
        {t('run.about.missing', { fields: listOf(missing) })}{' '}
        <Link to={editPath}>{t('run.about.add', { count: missing.length })}</Link>
      </p>
    );
  if (written.length === 0 && entry.notes === null) {
    return (
      <section aria-label={t('run.about.title')} className="mb-4">
        {add}
      </section>
    );
  }
  return (
    <Panel title={t('run.about.title')}>
      <dl className="row mb-0">
        {written.map(([term, , value]) => (
          <div key={term} className="col-sm-6 mb-3">
            <dt className="small text-body-secondary fw-normal">{term}</dt>
            <dd className="mb-0 cell-text">{value}</dd>
          </div>
        ))}
        {entry.notes !== null ? (
          <div className="col-12 mb-3">
            <dt className="small text-body-secondary fw-normal">{t('run.about.notes')}</dt>
            <dd className="mb-0 text-pre-line cell-text" translate="no">
              {entry.notes}
            </dd>
          </div>
        ) : null}
      </dl>
      {add}
    </Panel>
  );
}

/** "title", "title and kind", "title, kind and notes" (the last joined as each language joins it). */
function listOf(words: string[]): string {
  return words.length === 1
    ? words[0]!
    : t('run.about.list', { rest: words.slice(0, -1).join(', '), last: words[words.length - 1] });
}

/** The title a run's page shows: its own, or its date. */
export function runHeading(entry: Pick<Entry, 'title' | 'date'>, formatDate: (ymd: string) => string): string {
  return entry.title ?? t('run.heading', { date: formatDate(entry.date) });
}
