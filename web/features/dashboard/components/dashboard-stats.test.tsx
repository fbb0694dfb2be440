import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../../core/schemas.js';
import { displayOf } from '../../../lib/display';
import { DEFAULT_DISPLAY } from '../../../lib/display-context';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { BestResultsPanel, chartDays, DashboardStats, ThisWeekPanel } from './dashboard-stats';

const empty: Dashboard = {
  weekly_count: 0,
  weekly_avg_speed: null,
  weekly_avg_pace: null,
  max_speed: null,
  max_distance: null,
  max_time: null,
  week_chart: [],
};

function valueOf(label: string): string | null | undefined {
  return screen.getByText(label).nextElementSibling?.textContent;
}

describe('dashboard statistics', () => {
  it('shows "—" for missing statistics, never NaN', () => {
    render(
      <>
        <ThisWeekPanel dashboard={empty} />
        <BestResultsPanel dashboard={empty} />
      </>,
    );
    expect(valueOf('Records')).toBe('0');
    for (const label of ['Average speed', 'Average pace', 'Best speed', 'Longest distance', 'Longest run']) {
      expect(valueOf(label)).toBe('—');
    }
    expect(document.body.textContent).not.toMatch(/NaN|null|undefined/);
  });

  it('shows values with two decimals and their units', () => {
    render(
      <>
        <ThisWeekPanel dashboard={{ ...empty, weekly_count: 3, weekly_avg_speed: 11.456, weekly_avg_pace: 5.2 }} />
        <BestResultsPanel dashboard={{ ...empty, max_speed: 14, max_distance: 42.195, max_time: '03:30:00' }} />
      </>,
    );
    expect(screen.getByRole('heading', { name: 'This week' })).toBeInTheDocument();
    expect(valueOf('Records')).toBe('3');
    expect(valueOf('Average speed')).toBe('11.46 km/h');
    expect(valueOf('Average pace')).toBe('5.20 min/km');
    expect(valueOf('Best speed')).toBe('14.00 km/h');
    expect(valueOf('Longest distance')).toBe('42.20 km');
    expect(valueOf('Longest run')).toBe('03:30:00');
  });
});

describe('the 14-day chart', () => {
  it('has every one of the 14 days ending today, oldest first, a gap for a day without runs', () => {
    const display = displayOf({ ...DEFAULT_DISPLAY, dateFormat: 'YYYY-MM-DD' });
    const points = chartDays(
      [
        ['12/25', 10, 8],
        ['01/03', 12, 5.5],
      ],
      '2027-01-03',
      display,
    );
    expect(points).toHaveLength(14);
    expect(points[0]).toEqual({ label: '2026-12-21', speed: null, distance: null });
    expect(points[4]).toEqual({ label: '2026-12-25', speed: 10, distance: 8 });
    expect(points[13]).toEqual({ label: '2027-01-03', speed: 12, distance: 5.5 });
    expect(points.filter((point) => point.speed === null)).toHaveLength(12);
  });

  it("writes the days in the runner's format and the values in the runner's unit", () => {
    const display = displayOf({ ...DEFAULT_DISPLAY, units: 'mi', dateFormat: 'DD/MM/YYYY' });
    const [point] = chartDays([['03/05', 16.09344, 16.09344]], '2026-03-18', display).filter((p) => p.speed !== null);
    expect(point).toEqual({ label: '05/03/2026', speed: 10, distance: 10 });
  });
});

describe('a runner without runs', () => {
  it('is welcomed with where to start instead of empty panels', async () => {
    mockFetch({ 'GET /api/v1/dashboard/data': { body: empty } });
    renderWithApp(<DashboardStats />);
    expect(await screen.findByRole('heading', { name: 'Welcome to Running Times!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add your first run' })).toHaveAttribute('href', '/entry/new');
    expect(screen.getByRole('link', { name: 'Bring your history' })).toHaveAttribute('href', '/data');
    expect(screen.getByText('No runs in the last 14 days.')).toBeInTheDocument();
  });

  it('is not welcomed once there is a run', async () => {
    mockFetch({
      'GET /api/v1/dashboard/data': { body: { ...empty, max_distance: 5, max_speed: 10, max_time: '00:30:00' } },
    });
    renderWithApp(<DashboardStats />);
    await screen.findByText('Longest distance');
    expect(await screen.findByText('5.00')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome to Running Times!' })).not.toBeInTheDocument();
  });
});
