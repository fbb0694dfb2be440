import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Goal } from '../../../../core/goals.js';
import { KM_PER_MILE } from '../../../../core/units.js';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { goalTitle, targetForForm, targetFromForm } from './goal-format';
import { GoalsPanel } from './goal-progress';
import { GoalsManager } from './goals-manager';

function makeGoal(overrides: Partial<Goal> = {}): Goal {
  return {
    id: 5,
    period: 'week',
    metric: 'distance',
    target: 40,
    period_start: '2026-03-16',
    period_end: '2026-03-22',
    progress: 14.75,
    remaining: 25.25,
    per_day_needed: 5.05,
    achieved: false,
    history: Array.from({ length: 12 }, (_, i) => ({
      period_start: `2026-0${i < 2 ? 3 : 2}-0${(i % 9) + 1}`,
      progress: i * 5,
      achieved: i * 5 >= 40,
    })),
    ...overrides,
  };
}

describe('GoalsPanel (dashboard)', () => {
  it('shows each goal with a bar, what remains and what is needed per day', async () => {
    mockFetch({
      'GET /api/v1/goals': {
        body: {
          goals: [
            makeGoal(),
            makeGoal({ id: 6, metric: 'runs', target: 3, progress: 3, remaining: 0, achieved: true }),
          ],
        },
      },
    });
    renderWithApp(<GoalsPanel units="km" />);
    const bar = await screen.findByRole('progressbar', { name: 'Weekly distance: 40 km' });
    expect(bar).toHaveAttribute('aria-valuenow', String(Math.round((14.75 / 40) * 100)));
    expect(bar).toHaveAttribute('aria-valuetext', '14.75 km of 40 km');
    expect(screen.getByText(/^14.75 of 40 km/)).toHaveTextContent(
      '14.75 of 40 km · 25.25 km to go by 03/22/2026, 5.05 km a day',
    );
    expect(screen.getByRole('progressbar', { name: 'Weekly runs: 3 runs' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText(/Goal met!/)).toBeInTheDocument();
  });

  it('speaks miles when the runner does', async () => {
    mockFetch({ 'GET /api/v1/goals': { body: { goals: [makeGoal({ target: 16.093, progress: 8.047 })] } } });
    renderWithApp(<GoalsPanel units="mi" />, { display: { units: 'mi' } });
    expect(await screen.findByRole('progressbar', { name: 'Weekly distance: 10 mi' })).toHaveAttribute(
      'aria-valuetext',
      '5 mi of 10 mi',
    );
  });

  it('invites to set a goal when there is none', async () => {
    mockFetch({ 'GET /api/v1/goals': { body: { goals: [] } } });
    renderWithApp(<GoalsPanel units="km" />);
    expect(await screen.findByRole('link', { name: 'Set a goal' })).toHaveAttribute('href', '/goals');
  });
});

describe('a goal in words', () => {
  it('reads naturally for runs, time and distance: the unit once, what is left and what it needs a day', async () => {
    mockFetch({
      'GET /api/v1/goals': {
        body: {
          goals: [
            makeGoal({
              id: 1,
              period: 'month',
              period_end: '2026-03-31',
              metric: 'runs',
              target: 14,
              progress: 7,
              remaining: 7,
              per_day_needed: 2.33,
            }),
            makeGoal({
              id: 2,
              period: 'month',
              period_end: '2026-03-31',
              metric: 'time',
              target: 18000,
              progress: 7500,
              remaining: 10500,
              per_day_needed: 1500,
            }),
          ],
        },
      },
    });
    renderWithApp(<GoalsPanel units="km" />);
    expect(await screen.findByText(/^7 of 14 runs/)).toHaveTextContent(
      '7 of 14 runs · 7 to go by 03/31/2026, 2.33 a day',
    );
    expect(screen.getByText(/^2h 05m of 5h 00m/)).toHaveTextContent(
      '2h 05m of 5h 00m · 2h 55m to go by 03/31/2026, 25 min a day',
    );
  });
});

describe('GoalsManager', () => {
  it("starts a goal's history at the runner's first run, not with empty periods before it", async () => {
    const years = Array.from({ length: 12 }, (_, i) => ({
      period_start: `${2025 - i}-01-01`,
      progress: i < 2 ? 300 - i * 100 : i === 2 ? 0.5 : 0,
      achieved: i === 0,
    }));
    const fresh = makeGoal({
      id: 8,
      period: 'month',
      history: years.map((row) => ({ ...row, progress: 0, achieved: false })),
    });
    mockFetch({
      'GET /api/v1/goals': { body: { goals: [makeGoal({ period: 'year', target: 250, history: years }), fresh] } },
    });
    renderWithApp(<GoalsManager units="km" />);
    await userEvent.click(await screen.findByText('The 3 years since your first run: met 1 of 3'));
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.firstElementChild?.textContent)).toEqual(['2025', '2024', '2023']);
    expect(
      screen.getByText('No earlier months yet: the history starts with the month of your first run.'),
    ).toBeInTheDocument();
  });

  it('shows the last 12 periods of a goal, met or not', async () => {
    const goal = makeGoal();
    mockFetch({ 'GET /api/v1/goals': { body: { goals: [goal] } } });
    renderWithApp(<GoalsManager units="km" />);
    const met = goal.history.filter((row) => row.achieved).length;
    await userEvent.click(await screen.findByText(`The last 12 weeks: met ${met} of 12`));
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([`Week of 03/01/2026`, '0 km', 'No']);
    expect(rows.filter((row) => within(row).queryByText('Yes'))).toHaveLength(met);
  });

  it('adds a time goal typed in hours, sent in seconds', async () => {
    const calls = mockFetch({
      'GET /api/v1/goals': { body: { goals: [] } },
      'POST /api/v1/goals': { status: 201, body: { goal: makeGoal({ metric: 'time', target: 16200 }) } },
    });
    renderWithApp(<GoalsManager units="km" />);
    await userEvent.selectOptions(await screen.findByLabelText('Period'), 'Monthly');
    await userEvent.selectOptions(screen.getByLabelText('Measure'), 'time');
    await userEvent.type(screen.getByLabelText('Target (hours)'), '4.5');
    await userEvent.click(screen.getByRole('button', { name: 'Add goal' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      period: 'month',
      metric: 'time',
      target: 16200,
    });
  });

  it('takes a distance target in miles, and refuses a fraction of a run without sending it', async () => {
    const calls = mockFetch({
      'GET /api/v1/goals': { body: { goals: [] } },
      'POST /api/v1/goals': { status: 201, body: { goal: makeGoal() } },
    });
    renderWithApp(<GoalsManager units="mi" />, { display: { units: 'mi' } });
    await userEvent.selectOptions(await screen.findByLabelText('Measure'), 'runs');
    await userEvent.type(screen.getByLabelText('Target (runs)'), '2.5');
    await userEvent.click(screen.getByRole('button', { name: 'Add goal' }));
    expect(screen.getByLabelText('Target (runs)')).toHaveAccessibleDescription(
      'The target must be a whole number of runs.',
    );
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.selectOptions(screen.getByLabelText('Measure'), 'distance');
    await userEvent.clear(screen.getByLabelText('Target (mi)'));
    await userEvent.type(screen.getByLabelText('Target (mi)'), '25');
    await userEvent.click(screen.getByRole('button', { name: 'Add goal' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      period: 'week',
      metric: 'distance',
      target: Math.round(25 * KM_PER_MILE * 1000) / 1000,
    });
  });

  it('says when the 20 goals are reached instead of offering the form', async () => {
    mockFetch({
      'GET /api/v1/goals': { body: { goals: Array.from({ length: 20 }, (_, i) => makeGoal({ id: i + 1 })) } },
    });
    renderWithApp(<GoalsManager units="km" />);
    expect(await screen.findByText(/You have 20 goals/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add goal' })).not.toBeInTheDocument();
  });
});

describe('miles that round-trip', () => {
  it('a goal entered as 75 mi shows 75 mi afterwards, and saved unchanged stays the same km', async () => {
    const calls = mockFetch({
      'GET /api/v1/goals': { body: { goals: [] } },
      'POST /api/v1/goals': (request) => ({
        status: 201,
        body: { goal: makeGoal({ target: request.body?.target as number }) },
      }),
    });
    renderWithApp(<GoalsManager units="mi" />, { display: { units: 'mi' } });
    await userEvent.type(await screen.findByLabelText('Target (mi)'), '75');
    await userEvent.click(screen.getByRole('button', { name: 'Add goal' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const km = calls.find((call) => call.method === 'POST')?.body?.target as number;
    expect(goalTitle({ period: 'week', metric: 'distance', target: km }, 'mi', 'mi')).toBe('Weekly distance: 75 mi');
    expect(targetForForm('distance', km, 'mi')).toBe('75');
    expect(targetFromForm('distance', '75', 'mi', { metric: 'distance', target: km })).toBe(km);
  });

  it('any stored target shown in the form and saved unchanged is the target it was', () => {
    for (const [metric, target] of [
      ['distance', 10],
      ['distance', 120.701],
      ['time', 14_700],
      ['runs', 3],
    ] as const) {
      for (const units of ['km', 'mi'] as const) {
        const shown = targetForForm(metric, target, units);
        expect(targetFromForm(metric, shown, units, { metric, target })).toBe(target);
      }
    }
  });

  it('takes a comma as the decimal separator', () => {
    expect(targetFromForm('distance', '42,5', 'km')).toBe(42.5);
    expect(targetFromForm('time', '1,5', 'km')).toBe(5400);
    expect(targetFromForm('distance', '4x', 'km')).toBeNaN();
  });
});

describe("a goal's period", () => {
  it("names its weeks in the runner's date format", async () => {
    mockFetch({ 'GET /api/v1/goals': { body: { goals: [makeGoal()] } } });
    renderWithApp(<GoalsManager units="km" />, { display: { dateFormat: 'DD/MM/YYYY' } });
    await userEvent.click(await screen.findByText(/^The last 12 weeks: met/));
    expect(within(screen.getByRole('table')).getAllByRole('row')[1]).toHaveTextContent('Week of 01/03/2026');
    expect(screen.getByText(/to go by 22\/03\/2026/)).toBeInTheDocument();
  });
});
