import { ASSUMED_EFFORT, type Load } from '../../../../core/insights.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useLoad } from '../api/get-load';
import { dayName, plural } from './format';
import { LoadWarnings } from './load-warnings';

const FITNESS = '#3b82f6';
const FATIGUE = '#ef4444';
const FORM = '#10b981';

const show = (value: number | null) => (value === null ? '—' : value.toFixed(2));

/** Training load from effort x minutes: the 90-day trend, today's numbers, the warnings and 12 weeks. */
export function LoadPanels() {
  const { data: load, isError } = useLoad();
  if (isError) return <p className="text-danger">The training load could not be loaded.</p>;
  if (!load) return null;
  return (
    <>
      <LoadWarnings load={load} />
      <div className="row">
        <div className="col-lg-7">
          <TrendPanel load={load} />
        </div>
        <div className="col-lg-5">
          <TodayPanel load={load} />
        </div>
      </div>
      <WeeksPanel load={load} />
    </>
  );
}

function TrendPanel({ load }: { load: Load }) {
  return (
    <Panel title="Fitness, fatigue and form, last 90 days">
      <LazySeriesChart
        kind="line"
        height={300}
        labels={load.series.map((d) => dayName(d.date))}
        series={[
          { label: 'Fitness (42-day)', values: load.series.map((d) => d.fitness), color: FITNESS },
          { label: 'Fatigue (7-day)', values: load.series.map((d) => d.fatigue), color: FATIGUE },
          { label: 'Form', values: load.series.map((d) => d.form), color: FORM },
        ]}
        label="Fitness, fatigue and form over the last 90 days"
      />
      <p className="small text-body-secondary mt-2 mb-0">
        Each run's load is its effort (1-10) x its minutes. Fitness follows your load slowly (about 6 weeks), fatigue
        quickly (about a week); form = fitness - fatigue: negative while you are absorbing training, positive when you
        are fresh.
      </p>
    </Panel>
  );
}

function TodayPanel({ load }: { load: Load }) {
  const rows: [string, string, string][] = [
    ['Acute load', show(load.acute), 'The load of the last 7 days.'],
    ['Chronic load', show(load.chronic), 'The weekly average of the last 28 days: what you are used to.'],
    ['ACWR', show(load.acwr), 'Acute / chronic: near 1 is steady; above 1.5 the risk of injury rises.'],
    ['Monotony', show(load.monotony), 'Average daily load / its spread over 7 days: above 2 the days are too alike.'],
    ['Strain', show(load.strain), 'Acute load x monotony: hard and uniform weeks score high.'],
    ['Form', show(load.form), 'Fitness - fatigue today.'],
  ];
  return (
    <Panel title={`Today (${dayName(load.date)})`}>
      <dl className="row mb-0">
        {rows.map(([term, value, meaning]) => (
          <div key={term} className="col-12 mb-2">
            <dt className="d-flex justify-content-between">
              <span>{term}</span>
              <span>{value}</span>
            </dt>
            <dd className="small text-body-secondary mb-0">{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="small mt-2 mb-0">
        {load.estimated_runs === 0
          ? 'Every run of the last 28 days has an effort.'
          : `${plural(load.estimated_runs, 'run')} of the last 28 days had no effort; each was counted as effort ${ASSUMED_EFFORT} (moderate). Add efforts to your runs for a truer load.`}
      </p>
    </Panel>
  );
}

function WeeksPanel({ load }: { load: Load }) {
  const display = useDisplay();
  const labels = load.weekly.map((w) => `Week of ${dayName(w.week_start)}`);
  return (
    <Panel title="The last 12 weeks">
      <div className="row">
        <div className="col-md-6">
          <LazySeriesChart
            kind="bar"
            height={220}
            labels={labels}
            series={[
              {
                label: `Distance (${display.labels.distance})`,
                values: load.weekly.map((w) => display.distance(w.distance)),
                color: '#7acbf9',
              },
            ]}
            label={`Distance per week over the last 12 weeks, in ${display.labels.distance}`}
          />
        </div>
        <div className="col-md-6">
          <LazySeriesChart
            kind="bar"
            height={220}
            labels={labels}
            series={[{ label: 'Load', values: load.weekly.map((w) => w.load), color: '#f0ad4e' }]}
            label="Training load per week over the last 12 weeks"
          />
        </div>
      </div>
      <p className="small text-body-secondary mt-2 mb-0">
        Ramp: this week's distance is {show(load.ramp)}x the average of the 4 weeks before (above 1.3 is a steep build).
      </p>
    </Panel>
  );
}
