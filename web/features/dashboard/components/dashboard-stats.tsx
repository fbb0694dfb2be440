import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import dashboard from 'virtual:i18n/dashboard';
import { formatDate, formatPace, formatText } from '../../../../core/format.js';
import { dateFormatFor } from '../../../../core/i18n/languages.js';
import {
  DATE_FORMATS,
  LOCALES,
  PACE_FORMATS,
  type DateFormat,
  type Locale,
  type PaceFormat,
  type Units,
} from '../../../../core/preferences.js';
import type { Dashboard, User, UserUpdateBody } from '../../../../core/schemas.js';
import { addDays } from '../../../../core/time.js';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import type { ChartPoint } from '../../../components/charts/chart-types';
import { Panel } from '../../../components/panel';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { LANGUAGES, useT } from '../../../i18n/runtime';
import { useDisplay, type Display } from '../../../lib/display';
import { useDashboard } from '../api/get-dashboard';

const CHART_DAYS = 14;

/**
 * The 14 days ending today, oldest first: each day with runs at its speed and distance, each day
 * without a gap. The API's rows (`MM/DD`) name only the days with runs, all within these 14.
 */
export function chartDays(rows: Dashboard['week_chart'], today: string, display: Display): ChartPoint[] {
  const byDay = new Map(rows.map(([label, speed, distance]) => [label, { speed, distance }]));
  return Array.from({ length: CHART_DAYS }, (_, index) => {
    const day = addDays(today, index + 1 - CHART_DAYS);
    const runs = byDay.get(`${day.slice(5, 7)}/${day.slice(8, 10)}`);
    return {
      label: display.formatDate(day),
      speed: runs ? display.speed(runs.speed) : null,
      distance: runs ? display.distance(runs.distance) : null,
    };
  });
}

/**
 * One statistic of a panel. The columns share the row equally but never get
 * narrower than their value, which stays on one line (a time such as 01:43:34
 * needs more room than a third of a half-width panel).
 */
function Stat({ label, value, unit }: { label: string; value: string; unit?: string }) {
  return (
    <div className="col">
      <dt className="small text-body-secondary fw-normal">{label}</dt>
      <dd className="fs-5 fw-semibold mb-0 text-nowrap">
        {value}
        {unit && value !== '—' ? <span className="d-block small fw-normal"> {unit}</span> : null}
      </dd>
    </div>
  );
}

export function ThisWeekPanel({ dashboard: data }: { dashboard: Dashboard | undefined }) {
  const t = useT(dashboard);
  const display = useDisplay();
  return (
    <Panel title={t('dashboard.thisWeek.title')}>
      <dl className="row text-center mb-0">
        <Stat label={t('dashboard.thisWeek.runs')} value={data ? String(data.weekly_count) : '—'} />
        <Stat
          label={t('dashboard.thisWeek.averageSpeed')}
          value={display.formatSpeed(data?.weekly_avg_speed)}
          unit={display.labels.speed}
        />
        <Stat
          label={t('dashboard.thisWeek.averagePace')}
          value={display.formatPace(data?.weekly_avg_pace)}
          unit={display.labels.pace}
        />
      </dl>
    </Panel>
  );
}

export function BestResultsPanel({ dashboard: data }: { dashboard: Dashboard | undefined }) {
  const t = useT(dashboard);
  const display = useDisplay();
  return (
    <Panel title={t('dashboard.best.title')}>
      <dl className="row text-center mb-0">
        <Stat
          label={t('dashboard.best.speed')}
          value={display.formatSpeed(data?.max_speed)}
          unit={display.labels.speed}
        />
        <Stat
          label={t('dashboard.best.distance')}
          value={display.formatDistance(data?.max_distance)}
          unit={display.labels.distance}
        />
        <Stat label={t('dashboard.best.time')} value={formatText(data?.max_time)} />
      </dl>
    </Panel>
  );
}

export function PerformancePanel({ dashboard: data }: { dashboard: Dashboard | undefined }) {
  const t = useT(dashboard);
  const display = useDisplay();
  const rows = data?.week_chart ?? [];
  return (
    <Panel title={t('dashboard.performance.title')}>
      <LazyPerformanceChart
        points={rows.length > 0 ? chartDays(rows, display.today(), display) : []}
        height={250}
        labels={display.labels}
        label={t('dashboard.performance.chartLabel', {
          speed: display.labels.speed,
          distance: display.labels.distance,
        })}
        emptyText={t('dashboard.performance.empty')}
      />
    </Panel>
  );
}

/**
 * The profile update the preferences question saves with: the profile's `useUpdateProfile`, handed
 * down by the dashboard route (a feature imports no other feature).
 */
export type ProfileUpdate = Pick<
  UseMutationResult<User, Error, UserUpdateBody & { id: number }>,
  'mutate' | 'isPending'
>;

/** Who the welcome asks (null: nobody signed in, no question) and how it saves the answer. */
export interface WelcomeQuestion {
  user: User | null;
  update: ProfileUpdate;
}

/** Where the welcome remembers, per runner, that its preferences question was answered or put off. */
export const welcomeAskedKey = (userId: number) => `rt.welcome-asked.${userId}`;

function wasAsked(userId: number): boolean {
  try {
    return window.localStorage.getItem(welcomeAskedKey(userId)) !== null;
  } catch {
    return false;
  }
}

function rememberAsked(userId: number): void {
  try {
    window.localStorage.setItem(welcomeAskedKey(userId), '1');
  } catch {
    // Storage can be disabled (private mode); the question then comes back next time.
  }
}

/** The pace the examples are written from: 5.26 min/km, "5:16" as minutes and seconds. */
const EXAMPLE_PACE = 5.26;

/** Short enough for a phone's select: the example first, its name after ("03/18/2026 (m/d/y)"). */
const DATE_CHOICES: Record<DateFormat, string> = {
  auto: 'dashboard.preferences.dateAuto',
  'MM/DD/YYYY': 'dashboard.preferences.dateMonthFirst',
  'DD/MM/YYYY': 'dashboard.preferences.dateDayFirst',
  'YYYY-MM-DD': 'dashboard.preferences.dateYearFirst',
};

/**
 * The welcome's one question (issue 42): units, pace and date formats and language, each choice
 * with an example, saved with the profile update like the profile's preferences.
 */
function WelcomePreferences({ user, update, onDone }: { user: User; update: ProfileUpdate; onDone: () => void }) {
  const t = useT(dashboard);
  const display = useDisplay();
  const [units, setUnits] = useState<Units>(user.units);
  const [paceFormat, setPaceFormat] = useState<PaceFormat>(user.pace_format);
  const [dateFormat, setDateFormat] = useState<DateFormat>(user.date_format);
  const [locale, setLocale] = useState<Locale>(user.locale);

  const today = display.today();
  const unitOptions = [
    { value: 'km', label: t('dashboard.preferences.kilometres') },
    { value: 'mi', label: t('dashboard.preferences.miles') },
  ];
  const paceOptions = PACE_FORMATS.map((format) => ({
    value: format,
    label: t(format === 'clock' ? 'dashboard.preferences.paceClock' : 'dashboard.preferences.paceDecimal', {
      pace: formatPace(EXAMPLE_PACE, units, format),
      unit: units,
    }),
  }));
  const dateOptions = DATE_FORMATS.map((format) => {
    // "Your language": the chosen language's short date, or the app's now.
    const written = formatDate(today, format === 'auto' && locale !== 'auto' ? dateFormatFor(locale) : format);
    return { value: format, label: t(DATE_CHOICES[format], { date: written }) };
  });
  const localeOptions = [
    { value: 'auto', label: t('dashboard.preferences.browserLanguage') },
    // Each language named in itself: not the app's text, in its own language.
    ...LANGUAGES.map(({ code, name }) => ({ value: code, label: name, lang: code, translate: 'no' as const })),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        id: user.id,
        name: user.name,
        email: user.email,
        units,
        pace_format: paceFormat,
        date_format: dateFormat,
        locale,
      },
      {
        onSuccess: () => {
          notify(t('dashboard.preferences.saved'), 'success');
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="mt-3 pt-3 border-top" aria-labelledby="welcome-preferences-title">
      <h3 id="welcome-preferences-title" className="h6">
        {t('dashboard.preferences.title')}
      </h3>
      <p className="small text-body-secondary">{t('dashboard.preferences.later')}</p>
      <div className="row g-3 mb-3">
        <div className="col-12 col-sm-6">
          <FormField
            label={t('dashboard.preferences.units')}
            name="units"
            className=""
            value={units}
            onValueChange={(value) => setUnits(value === 'mi' ? 'mi' : 'km')}
            options={unitOptions}
          />
        </div>
        <div className="col-12 col-sm-6">
          <FormField
            label={t('dashboard.preferences.pace')}
            name="pace_format"
            className=""
            value={paceFormat}
            onValueChange={(value) => setPaceFormat(PACE_FORMATS.find((format) => format === value) ?? 'decimal')}
            options={paceOptions}
          />
        </div>
        <div className="col-12 col-sm-6">
          <FormField
            label={t('dashboard.preferences.dates')}
            name="date_format"
            className=""
            value={dateFormat}
            onValueChange={(value) => setDateFormat(DATE_FORMATS.find((format) => format === value) ?? 'auto')}
            options={dateOptions}
          />
        </div>
        <div className="col-12 col-sm-6">
          <FormField
            label={t('dashboard.preferences.language')}
            name="locale"
            className=""
            value={locale}
            onValueChange={(value) => setLocale(LOCALES.find((code) => code === value) ?? 'auto')}
            options={localeOptions}
          />
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={update.isPending}>
          {t('dashboard.preferences.save')}
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={onDone} disabled={update.isPending}>
          {t('dashboard.preferences.notNow')}
        </button>
      </div>
    </form>
  );
}

/** A runner without runs yet: where to start, rather than empty panels, and the preferences question once. */
export function Welcome({ question }: { question?: WelcomeQuestion | undefined }) {
  const t = useT(dashboard);
  const user = question?.user ?? null;
  const [answered, setAnswered] = useState<number | null>(null);
  const ask = user !== null && answered !== user.id && !wasAsked(user.id);
  const done = () => {
    if (!user) return;
    rememberAsked(user.id);
    setAnswered(user.id);
  };
  return (
    <section className="card mb-4 border-primary" aria-labelledby="welcome-title">
      <div className="card-body">
        <h2 id="welcome-title" className="h5">
          {t('dashboard.welcome.title')}
        </h2>
        <p>{t('dashboard.welcome.body')}</p>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/entry/new" className="btn btn-primary">
            {t('dashboard.welcome.firstRun')}
          </Link>
          <Link to="/data" className="btn btn-outline-primary">
            {t('dashboard.welcome.import')}
          </Link>
        </div>
        <p className="small text-body-secondary mt-2 mb-0">{t('dashboard.welcome.importHint')}</p>
        {ask && question ? (
          <WelcomePreferences key={user.id} user={user} update={question.update} onDone={done} />
        ) : null}
      </div>
    </section>
  );
}

/** The runner's statistics: this week, best results and the last two weeks' chart (a welcome before the first run). */
export function DashboardStats({ welcome }: { welcome?: WelcomeQuestion | undefined } = {}) {
  const { data } = useDashboard();
  return (
    <>
      {data && data.max_distance === null ? <Welcome question={welcome} /> : null}
      <div className="row">
        <div className="col-lg-6">
          <ThisWeekPanel dashboard={data} />
        </div>
        <div className="col-lg-6">
          <BestResultsPanel dashboard={data} />
        </div>
      </div>
      <PerformancePanel dashboard={data} />
    </>
  );
}
