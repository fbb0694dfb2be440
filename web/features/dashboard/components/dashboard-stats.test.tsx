import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../../core/schemas.js';
import { BestResultsPanel, ThisWeekPanel } from './dashboard-stats';

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
