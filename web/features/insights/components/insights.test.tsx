import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Load, RecordRow, YearReview as Review } from '../../../../core/insights.js';
import { addDays } from '../../../../core/time.js';
import { smallTrack } from '../../../test/track-fixtures';
import { mockFetch } from '../../../test/fetch-mock';
import { makeEntry } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { scrollToToday } from './calendar-heatmap';
import { LoadPanels } from './load-panels';
import { warningText } from './load-warnings';
import { RecordsPanel } from './records-panel';
import { YearReview } from './year-review';

function makeLoad(overrides: Partial<Load> = {}): Load {
  const date = '2026-03-18';
  return {
    date,
    acute: 412.4,
    chronic: 388.75,
    acwr: 1.0608,
    monotony: 1.2345,
    strain: 509.1,
    fitness: 52.6,
    fatigue: 58.9,
    form: -6.3,
    estimated_runs: 0,
    hr_estimated_runs: 0,
    assumed_effort: 5,
    ramp: 1.1789,
    warnings: [],
    series: Array.from({ length: 90 }, (_, i) => ({
      date: addDays(date, i - 89),
      load: i % 3 === 0 ? 180 : 0,
      fitness: 50,
      fatigue: 55,
      form: -5,
    })),
    weekly: Array.from({ length: 12 }, (_, i) => ({
      week_start: addDays('2026-03-16', (i - 11) * 7),
      distance: 30,
      load: 900,
    })),
    ...overrides,
  };
}

const emptyLoad = () =>
  makeLoad({
    acute: 0,
    chronic: 0,
    acwr: null,
    monotony: null,
    strain: null,
    fitness: 0,
    fatigue: 0,
    form: 0,
    ramp: null,
    series: makeLoad().series.map((day) => ({ ...day, load: 0, fitness: 0, fatigue: 0, form: 0 })),
    weekly: makeLoad().weekly.map((week) => ({ ...week, distance: 0, load: 0 })),
  });

const valueOf = (term: string) => screen.getByText(term).nextElementSibling?.textContent;

describe('the training load page', () => {
  it('shows loads as whole numbers and ratios with one decimal, naming the window of each', async () => {
    mockFetch({ 'GET /api/v1/insights/load': { body: { load: makeLoad() } } });
    renderWithApp(<LoadPanels />);
    expect(await screen.findByText('Acute load, last 7 days')).toBeInTheDocument();
    expect(valueOf('Acute load, last 7 days')).toBe('412');
    expect(valueOf('Chronic load, last 28 days')).toBe('389');
    expect(valueOf('ACWR')).toBe('1.1');
    expect(valueOf('Monotony, last 7 days')).toBe('1.2');
    expect(valueOf('Strain, last 7 days')).toBe('509');
    expect(valueOf('Form, today')).toBe('-6');
    expect(screen.getByText(/this week, Monday to today\. Ramp: this week's distance is 1\.2x/)).toBeInTheDocument();
    expect(screen.getByText('Every run of the last 28 days has an effort.')).toBeInTheDocument();
    // The rule of heart-rate zones, and what happens without a maximum in the profile.
    expect(
      screen.getByText(
        /drawn from the maximum heart rate of your profile; while it is not set, from the highest heart rate of all your tracks \(at most 220 bpm\)/,
      ),
    ).toBeInTheDocument();
  });

  it('says which runs got their effort from heart rate, and how, and which the assumed one', async () => {
    mockFetch({
      'GET /api/v1/insights/load': { body: { load: { ...makeLoad(), estimated_runs: 3, hr_estimated_runs: 2 } } },
    });
    renderWithApp(<LoadPanels />);
    expect(
      await screen.findByText(
        /^3 runs of the last 28 days had no effort\. 2 of them got their efforts from heart rate: the time in each heart-rate zone, weighted 1 below the zones and 2, 3, 5, 7 and 9 in zones 1 to 5 .* The other one was counted as effort 5 \(moderate\)\./,
      ),
    ).toBeInTheDocument();
  });

  it('says nothing about the runs of the last 28 days when there were none', async () => {
    const load = makeLoad();
    load.series = load.series.map((day, i) => (i >= 62 ? { ...day, load: 0 } : day));
    mockFetch({ 'GET /api/v1/insights/load': { body: { load } } });
    renderWithApp(<LoadPanels />);
    expect(await screen.findByText('No runs in the last 28 days.')).toBeInTheDocument();
    expect(screen.queryByText(/Every run of the last 28 days/)).not.toBeInTheDocument();
  });

  it('without any runs, explains what will show instead of flat lines at zero', async () => {
    mockFetch({ 'GET /api/v1/insights/load': { body: { load: emptyLoad() } } });
    renderWithApp(<LoadPanels />);
    expect(await screen.findByRole('heading', { name: 'No training load yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a run' })).toHaveAttribute('href', '/entry/new');
    expect(screen.queryByText(/every run of the last 28 days/i)).not.toBeInTheDocument();
    expect(screen.queryByText('Acute load, last 7 days')).not.toBeInTheDocument();
  });

  it("names the window of each warning: the last 7 days, or this week's distance", () => {
    const load = makeLoad({ acwr: 1.62, ramp: 1.444, monotony: 2.345 });
    expect(warningText('acwr_high', load)).toMatch(
      /^Your load of the last 7 days is 1\.6x your weekly average of the last 28 days/,
    );
    expect(warningText('monotony_high', load)).toMatch(/^Your last 7 days were much alike \(monotony 2\.3\)/);
    expect(warningText('ramp_high', load)).toMatch(/^This week's distance \(Monday to today\) is 1\.4x/);
  });
});

describe('records', () => {
  it("link each record's run by its date, in the runner's formats, before its edit pencil", async () => {
    const record: RecordRow = {
      key: '10k',
      distance: 10,
      time: '00:53:30',
      pace: 5.35,
      date: '2026-03-09',
      entry_id: 42,
      source: 'run',
      progression: [{ date: '2026-03-09', time: '00:53:30', entry_id: 42 }],
    };
    mockFetch({ 'GET /api/v1/insights/records': { body: { records: [record] } } });
    renderWithApp(<RecordsPanel />, { display: { dateFormat: 'DD/MM/YYYY', paceFormat: 'clock' } });
    const table = await screen.findByRole('table', { name: 'Personal records by distance' });
    expect(within(table).getByRole('columnheader', { name: 'Pace (/km)' })).toBeInTheDocument();
    const row = within(table).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 4),
    ).toEqual(['10 km', '00:53:30', '5:21', '09/03/2026']);
    const links = within(row).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/entry/42', '/entry/edit/42']);
    const progression = screen.getByRole('region', { name: 'Progression' });
    expect(within(progression).getByRole('link', { name: '09/03/2026' })).toHaveAttribute('href', '/entry/42');
  });
});

describe('records from best efforts', () => {
  it('say where the effort was run, and link to the run at that effort', async () => {
    const record: RecordRow = {
      key: '1k',
      distance: 1,
      time: '00:04:50',
      pace: 4.83,
      date: '2026-05-11',
      entry_id: 7,
      source: 'best_effort',
      progression: [{ date: '2026-05-11', time: '00:04:50', entry_id: 7 }],
    };
    mockFetch({
      'GET /api/v1/insights/records': { body: { records: [record] } },
      'GET /api/v1/entry/7/track': { body: { track: smallTrack() } },
    });
    renderWithApp(<RecordsPanel />);
    // The track: 2.5 km long, its fastest kilometre from 1.2 km on.
    expect(await screen.findByText('Fastest 1 km within your 2.50 km run, from km 1.20')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Personal records by distance' });
    expect(within(table).getAllByRole('link')[0]).toHaveAttribute('href', '/entry/7?effort=1k');
  });
});

describe('the year in review', () => {
  const review = (overrides: Partial<Review> = {}): Review => ({
    year: 2026,
    runs: 2,
    distance: 20,
    seconds: 6000,
    avg_pace: 5,
    longest: makeEntry({ id: 3, date: '2026-02-01', distance: 12, time: '01:00:00' }),
    fastest: makeEntry({ id: 4, date: '2026-03-01', distance: 8, time: '00:40:00' }),
    months: [0, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    records: [],
    previous: { runs: 0, distance: 0, seconds: 0 },
    ...overrides,
  });

  it("links the longest and the fastest run to their pages, in the runner's formats", async () => {
    mockFetch({
      'GET /api/v1/insights/year': { body: { year: review() } },
      'GET /api/v1/insights/calendar': { body: { calendar: { year: 2026, days: [['2026-02-01', 12, 1]] } } },
    });
    renderWithApp(<YearReview year={2026} />, { display: { dateFormat: 'YYYY-MM-DD', paceFormat: 'clock' } });
    const best = await screen.findByRole('region', { name: 'Longest and fastest runs' });
    expect(within(best).getByRole('link', { name: '2026-02-01' })).toHaveAttribute('href', '/entry/3');
    expect(within(best).getByRole('link', { name: 'Edit the run of 2026-02-01' })).toHaveAttribute(
      'href',
      '/entry/edit/3',
    );
    expect(best).toHaveTextContent('12 km in 01:00:00 (5:00 /km)');
    expect(screen.getByText(/Average pace/)).toHaveTextContent('Average pace: 5:00 /km');
  });

  it('without runs says so instead of empty charts', async () => {
    mockFetch({
      'GET /api/v1/insights/year': {
        body: {
          year: review({
            runs: 0,
            distance: 0,
            seconds: 0,
            avg_pace: null,
            longest: null,
            fastest: null,
            months: Array(12).fill(0),
          }),
        },
      },
      'GET /api/v1/insights/calendar': { body: { calendar: { year: 2026, days: [] } } },
    });
    renderWithApp(<YearReview year={2026} />);
    expect(await screen.findByRole('heading', { name: 'No runs in 2026' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Distance by month' })).not.toBeInTheDocument();
  });
});

describe("the year's day grid", () => {
  it("opens this year's grid scrolled so that today's week is in view, another year's at January", () => {
    // 2026-11-20 is in the 47th column (weeks from Monday 2025-12-29); 375 px leave about 24 columns.
    const left = scrollToToday(2026, '2026-11-20', 343);
    expect(left).toBeGreaterThan(0);
    const firstVisibleColumn = Math.floor((left - 32) / 14);
    expect(firstVisibleColumn).toBeLessThanOrEqual(46);
    expect(firstVisibleColumn + Math.floor((343 - 32) / 14)).toBeGreaterThanOrEqual(46);
    expect(scrollToToday(2025, '2026-11-20', 343)).toBe(0);
    expect(scrollToToday(2026, '2026-01-05', 343)).toBe(0);
  });
});
