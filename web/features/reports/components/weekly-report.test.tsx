import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WeeklyReport as Report, WeeklyRow } from '../../../../core/schemas.js';
import { displayOf } from '../../../lib/display';
import { DEFAULT_DISPLAY } from '../../../lib/display-context';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { reportWeeks, reportYears, WeeklyReport } from './weekly-report';

const row = (week: number, overrides: Partial<WeeklyRow> = {}): WeeklyRow => ({
  week,
  week_start: '2026-03-16',
  week_end: '2026-03-22',
  avg_speed: 12,
  avg_distance: 8,
  count: 2,
  total_distance: 16,
  total_time: '01:20:00',
  ...overrides,
});

const display = displayOf(DEFAULT_DISPLAY);

describe('report years', () => {
  it('run from the newest year down to the oldest, including the year shown', () => {
    expect(reportYears({ min_year: 2021, max_year: 2023 }, 2023)).toEqual([2023, 2022, 2021]);
    expect(reportYears({ min_year: 2022, max_year: 2023 }, 2025)).toEqual([2025, 2024, 2023, 2022]);
  });
});

describe("the report's chart", () => {
  it('has every week of a past year, the weeks without runs at zero', () => {
    const weeks = reportWeeks(
      { year: 2020, data: [row(53), row(2, { avg_speed: 10, avg_distance: 5 })] },
      '2026-03-18',
      display,
    );
    expect(weeks).toHaveLength(53);
    expect(weeks[0]).toEqual({ label: 'Week 1', speed: 0, distance: 0 });
    expect(weeks[1]).toEqual({ label: 'Week 2', speed: 10, distance: 5 });
    expect(weeks[52]).toEqual({ label: 'Week 53', speed: 12, distance: 8 });
  });

  it('stops at this week in the current year, and is empty in a year without runs', () => {
    // 2026-03-18 is in ISO week 12.
    expect(reportWeeks({ year: 2026, data: [row(3)] }, '2026-03-18', display)).toHaveLength(12);
    expect(reportWeeks({ year: 2026, data: [] }, '2026-03-18', display)).toEqual([]);
  });
});

describe('the weekly table', () => {
  it('has the runs, total distance and total time of each week, with dates in the runner\u2019s format', async () => {
    const report: Report = {
      year: 2026,
      min_year: 2026,
      max_year: 2026,
      data: [row(12)],
      chart: [[12, 12, 8]],
    };
    mockFetch({ 'GET /api/v1/report/weekly': { body: { weekly: report } } });
    renderWithApp(<WeeklyReport year={2026} onYearChange={() => {}} />, { display: { dateFormat: 'YYYY-MM-DD' } });
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Week', 'Runs', 'Total distance (km)', 'Total time', 'Avg. Speed (km/h)', 'Avg. Distance (km)']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2026-03-16 - 2026-03-22 (week 12)', '2', '16.00', '01:20:00', '12.00', '8.00']);
  });
});
