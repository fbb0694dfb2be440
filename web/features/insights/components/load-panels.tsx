import { Link } from 'react-router';
import { ASSUMED_EFFORT, type Load } from '../../../../core/insights.js';
import { formatCount } from '../../../../core/format.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useLoad } from '../api/get-load';
import { showLoad, showRatio } from './format';
import { LoadWarnings } from './load-warnings';

const FITNESS = '#3b82f6';
const FATIGUE = '#ef4444';
const FORM = '#10b981';

/** Whether the 28 days ending at the load's date hold a run (every run has a load above 0). */
const runsInLast28Days = (load: Load) => load.series.slice(-28).some((day) => day.load > 0);

/** Training load from effort x minutes: the 90-day trend, today's numbers, the warnings and 12 weeks. */
export function LoadPanels() {
  const { data: load, isError } = useLoad();
  if (isError) return <p className="text-danger">The training load could not be loaded.</p>;
  if (!load) return null;
  const nothing =
    load.series.every((day) => day.load === 0 && day.fitness === 0) && load.weekly.every((w) => w.distance === 0);
  if (nothing) return <NoLoadYet />;
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

/** A runner without runs in the last 90 days: what the page will show, instead of flat lines at zero. */
function NoLoadYet() {
  return (
    <Panel title="No training load yet">
      <p>
        Your training load shows once you have runs in the last 90 days: each run's load is its effort (1-10) x its
        minutes, and the page follows your fitness, fatigue and form from them.
      </p>
      <Link to="/entry/new" className="btn btn-primary">
        Add a run
      </Link>
    </Panel>
  );
}

function TrendPanel({ load }: { load: Load }) {
  const display = useDisplay();
  return (
    <Panel title="Fitness, fatigue and form, last 90 days">
      <LazySeriesChart
        kind="line"
        height={300}
        labels={load.series.map((d) => display.formatDate(d.date))}
        series={[
          { label: 'Fitness (42-day)', values: load.series.map((d) => Math.round(d.fitness)), color: FITNESS },
          { label: 'Fatigue (7-day)', values: load.series.map((d) => Math.round(d.fatigue)), color: FATIGUE },
          { label: 'Form', values: load.series.map((d) => Math.round(d.form)), color: FORM },
        ]}
        label="Fitness, fatigue and form over the last 90 days"
        yTitle="Load"
      />
      <p className="small text-body-secondary mt-2 mb-0">
        Each run's load is its effort (1-10) x its minutes. Fitness follows your load slowly (about 6 weeks), fatigue
        quickly (about a week); form = fitness - fatigue: negative while you are absorbing training, positive when you
        are fresh.
      </p>
    </Panel>
  );
}

/** How heart rate stands in for a missing effort, and which maximum its zones come from. */
const HEART_RATE_RULE =
  'A run without an effort whose track has heart rate gets its effort from its time in each heart-rate zone. The zones are drawn from the maximum heart rate of your profile; while it is not set, from the highest heart rate of all your tracks (at most 220 bpm). Set it in the preferences of your profile.';

/** The runs of the last 28 days without an effort, in words (nothing about them when there are none). */
function effortsSentence(load: Load): string {
  if (!runsInLast28Days(load)) return 'No runs in the last 28 days.';
  if (load.estimated_runs === 0) return 'Every run of the last 28 days has an effort.';
  const assumed = load.estimated_runs - load.hr_estimated_runs;
  const fromHeartRate =
    load.hr_estimated_runs > 0
      ? `${load.hr_estimated_runs} of them ${load.hr_estimated_runs === 1 ? 'got its effort' : 'got their efforts'} from heart rate: the time in each heart-rate zone, weighted 1 below the zones and 2, 3, 5, 7 and 9 in zones 1 to 5 (zones from the maximum heart rate of your profile, else the highest of your tracks). `
      : '';
  const rest =
    assumed > 0
      ? `${assumed === load.estimated_runs ? (assumed === 1 ? 'It' : 'Each') : `The other ${assumed === 1 ? 'one' : assumed}`} was counted as effort ${ASSUMED_EFFORT} (moderate). `
      : '';
  return `${formatCount(load.estimated_runs, 'run')} of the last 28 days had no effort. ${fromHeartRate}${rest}Add efforts to your runs for a truer load.`;
}

function TodayPanel({ load }: { load: Load }) {
  const display = useDisplay();
  const rows: [string, string, string][] = [
    ['Acute load, last 7 days', showLoad(load.acute), 'The load of the 7 days ending today.'],
    [
      'Chronic load, last 28 days',
      showLoad(load.chronic),
      'The load of the 28 days ending today, per week: what you are used to.',
    ],
    ['ACWR', showRatio(load.acwr), 'Acute / chronic: near 1 is steady; above 1.5 the risk of injury rises.'],
    [
      'Monotony, last 7 days',
      showRatio(load.monotony),
      'Average daily load / its spread over the last 7 days: above 2 the days are too alike.',
    ],
    ['Strain, last 7 days', showLoad(load.strain), 'Acute load x monotony: hard and uniform weeks score high.'],
    ['Form, today', showLoad(load.form), 'Fitness - fatigue today.'],
  ];
  return (
    <Panel title={`Today (${display.formatDate(load.date)})`}>
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
      <p className="small mt-2 mb-0">{effortsSentence(load)}</p>
      <p className="small text-body-secondary mt-2 mb-0">{HEART_RATE_RULE}</p>
    </Panel>
  );
}

function WeeksPanel({ load }: { load: Load }) {
  const display = useDisplay();
  const labels = load.weekly.map((w) => `Week of ${display.formatDate(w.week_start)}`);
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
            yTitle={`Distance (${display.labels.distance})`}
          />
        </div>
        <div className="col-md-6">
          <LazySeriesChart
            kind="bar"
            height={220}
            labels={labels}
            series={[{ label: 'Load', values: load.weekly.map((w) => Math.round(w.load)), color: '#f0ad4e' }]}
            label="Training load per week over the last 12 weeks"
            yTitle="Load"
          />
        </div>
      </div>
      <p className="small text-body-secondary mt-2 mb-0">
        The last week is this week, Monday to today. Ramp: this week's distance is {showRatio(load.ramp)}x the average
        of the 4 weeks before (above 1.3 is a steep build).
      </p>
    </Panel>
  );
}
