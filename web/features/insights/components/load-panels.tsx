import { Link } from 'react-router';
import insights from 'virtual:i18n/insights';
import { ASSUMED_EFFORT, type Load } from '../../../../core/insights.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
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
  useT(insights);
  const { data: load, isError } = useLoad();
  if (isError) return <p className="text-danger">{t('insights.load.loadError')}</p>;
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
    <Panel title={t('insights.load.empty.title')}>
      <p>{t('insights.load.empty.body')}</p>
      <Link to="/entry/new" className="btn btn-primary">
        {t('insights.load.empty.addRun')}
      </Link>
    </Panel>
  );
}

function TrendPanel({ load }: { load: Load }) {
  const display = useDisplay();
  return (
    <Panel title={t('insights.load.trend.title')}>
      <LazySeriesChart
        kind="line"
        height={300}
        labels={load.series.map((d) => display.formatDate(d.date))}
        series={[
          {
            label: t('insights.load.trend.fitness'),
            values: load.series.map((d) => Math.round(d.fitness)),
            color: FITNESS,
          },
          {
            label: t('insights.load.trend.fatigue'),
            values: load.series.map((d) => Math.round(d.fatigue)),
            color: FATIGUE,
          },
          { label: t('insights.load.trend.form'), values: load.series.map((d) => Math.round(d.form)), color: FORM },
        ]}
        label={t('insights.load.trend.chart')}
        yTitle={t('insights.load.axis')}
      />
      <p className="small text-body-secondary mt-2 mb-0">{t('insights.load.trend.explained')}</p>
    </Panel>
  );
}

/** The runs of the last 28 days without an effort, in words (nothing about them when there are none). */
function effortsSentence(load: Load): string {
  if (!runsInLast28Days(load)) return t('insights.load.efforts.noRuns');
  if (load.estimated_runs === 0) return t('insights.load.efforts.allSet');
  const assumed = load.estimated_runs - load.hr_estimated_runs;
  const sentences = [t('insights.load.efforts.missing', { count: load.estimated_runs })];
  if (load.hr_estimated_runs > 0) {
    sentences.push(t('insights.load.efforts.fromHeartRate', { count: load.hr_estimated_runs }));
  }
  if (assumed > 0) {
    sentences.push(
      assumed === load.estimated_runs
        ? t('insights.load.efforts.allAssumed', { count: assumed, effort: ASSUMED_EFFORT })
        : t('insights.load.efforts.otherAssumed', { count: assumed, effort: ASSUMED_EFFORT }),
    );
  }
  sentences.push(t('insights.load.efforts.addEfforts'));
  return sentences.join(' ');
}

function TodayPanel({ load }: { load: Load }) {
  const display = useDisplay();
  const rows: [string, string, string][] = [
    [t('insights.load.today.acute'), showLoad(load.acute), t('insights.load.today.acuteMeaning')],
    [t('insights.load.today.chronic'), showLoad(load.chronic), t('insights.load.today.chronicMeaning')],
    [t('insights.load.today.acwr'), showRatio(load.acwr), t('insights.load.today.acwrMeaning')],
    [t('insights.load.today.monotony'), showRatio(load.monotony), t('insights.load.today.monotonyMeaning')],
    [t('insights.load.today.strain'), showLoad(load.strain), t('insights.load.today.strainMeaning')],
    [t('insights.load.today.form'), showLoad(load.form), t('insights.load.today.formMeaning')],
  ];
  return (
    <Panel title={t('insights.load.today.title', { date: display.formatDate(load.date) })}>
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
      <p className="small text-body-secondary mt-2 mb-0">{t('insights.load.today.heartRateRule')}</p>
    </Panel>
  );
}

function WeeksPanel({ load }: { load: Load }) {
  const display = useDisplay();
  const labels = load.weekly.map((w) => t('insights.load.weeks.weekOf', { date: display.formatDate(w.week_start) }));
  const distance = t('insights.load.weeks.distance', { unit: display.labels.distance });
  return (
    <Panel title={t('insights.load.weeks.title')}>
      <div className="row">
        <div className="col-md-6">
          <LazySeriesChart
            kind="bar"
            height={220}
            labels={labels}
            series={[
              {
                label: distance,
                values: load.weekly.map((w) => display.distance(w.distance)),
                color: '#7acbf9',
              },
            ]}
            label={t('insights.load.weeks.distanceChart', { unit: display.labels.distance })}
            yTitle={distance}
          />
        </div>
        <div className="col-md-6">
          <LazySeriesChart
            kind="bar"
            height={220}
            labels={labels}
            series={[
              { label: t('insights.load.axis'), values: load.weekly.map((w) => Math.round(w.load)), color: '#f0ad4e' },
            ]}
            label={t('insights.load.weeks.loadChart')}
            yTitle={t('insights.load.axis')}
          />
        </div>
      </div>
      <p className="small text-body-secondary mt-2 mb-0">
        {t('insights.load.weeks.ramp', { ramp: showRatio(load.ramp) })}
      </p>
    </Panel>
  );
}
