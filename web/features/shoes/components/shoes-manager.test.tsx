import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { KM_PER_MILE } from '../../../../core/units.js';
import { mockFetch } from '../../../test/fetch-mock';
import { makeShoe } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { ShoeAlerts } from './shoe-alerts';
import { ShoesManager } from './shoes-manager';

const shoes = [
  makeShoe({ id: 1, name: 'Old pair', retired: true, distance: 812.4, runs: 90, over_limit: true }),
  makeShoe({ id: 2, name: 'Racer', distance: 120, runs: 12 }),
  makeShoe({ id: 3, name: 'Daily', is_default: true, distance: 350, limit_km: 700, runs: 40 }),
];

describe('ShoesManager', () => {
  it('lists shoes in use first (the default on top), each with its distance as a bar against its limit', async () => {
    mockFetch({ 'GET /api/v1/shoes': { body: { shoes } } });
    renderWithApp(<ShoesManager units="km" />);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['Daily', 'Racer', 'Old pair']);
    const bar = within(items[0]!).getByRole('progressbar', { name: 'Daily distance' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(bar).toHaveAttribute('aria-valuetext', '350 km of 700 km');
    expect(within(items[0]!).getByText('Default')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Retired')).toBeInTheDocument();
    expect(within(items[2]!).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    // Neither the default nor a retired shoe can be made the default.
    expect(within(items[0]!).queryByRole('button', { name: /Make default/ })).not.toBeInTheDocument();
    expect(within(items[2]!).queryByRole('button', { name: /Make default/ })).not.toBeInTheDocument();
    expect(within(items[2]!).getByRole('button', { name: 'Unretire Old pair' })).toBeInTheDocument();
  });

  it('shows miles and takes the limit in miles, sending km', async () => {
    const calls = mockFetch({
      'GET /api/v1/shoes': { body: { shoes: [] } },
      'POST /api/v1/shoes': { status: 201, body: { shoe: makeShoe() } },
    });
    renderWithApp(<ShoesManager units="mi" />, { display: { units: 'mi' } });
    expect(await screen.findByText(/No shoes yet/)).toBeInTheDocument();
    const limit = screen.getByLabelText('Limit (mi)');
    expect(limit).toHaveValue('434.96');
    await userEvent.type(screen.getByLabelText('Name'), 'Trail');
    await userEvent.clear(limit);
    await userEvent.type(limit, '500');
    await userEvent.click(screen.getByLabelText('Default shoe for new runs'));
    await userEvent.click(screen.getByRole('button', { name: 'Add shoe' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Trail',
      brand: null,
      limit_km: Math.round(500 * KM_PER_MILE * 1000) / 1000,
      start_km: 0,
      is_default: true,
    });
  });

  it('a limit entered as 75 mi shows 75 mi afterwards, and saved unchanged stays the same km', async () => {
    const calls = mockFetch({
      'GET /api/v1/shoes': { body: { shoes: [] } },
      'POST /api/v1/shoes': { status: 201, body: { shoe: makeShoe() } },
    });
    const { unmount } = renderWithApp(<ShoesManager units="mi" />, { display: { units: 'mi' } });
    await userEvent.type(await screen.findByLabelText('Name'), 'Trail');
    await userEvent.clear(screen.getByLabelText('Limit (mi)'));
    await userEvent.type(screen.getByLabelText('Limit (mi)'), '75');
    await userEvent.click(screen.getByRole('button', { name: 'Add shoe' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const limitKm = calls.find((call) => call.method === 'POST')?.body?.limit_km as number;
    unmount();

    const stored = makeShoe({ id: 9, name: 'Trail', limit_km: limitKm, start_km: 100, distance: 100 });
    const edits = mockFetch({
      'GET /api/v1/shoes': { body: { shoes: [stored] } },
      'POST /api/v1/shoes/9': { body: { shoe: stored } },
    });
    renderWithApp(<ShoesManager units="mi" />, { display: { units: 'mi' } });
    expect(await screen.findByRole('progressbar', { name: 'Trail distance' })).toHaveAttribute(
      'aria-valuetext',
      '62.1 mi of 75 mi',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Edit Trail' }));
    expect(screen.getAllByLabelText('Limit (mi)')[0]).toHaveValue('75');
    expect(screen.getAllByLabelText('Distance before tracking (mi)')[0]).toHaveValue('62.14');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edits.some((call) => call.method === 'POST')).toBe(true));
    expect(edits.find((call) => call.method === 'POST')?.body).toMatchObject({ limit_km: limitKm, start_km: 100 });
  });

  it('takes the distance a shoe had before it was tracked, with a comma too', async () => {
    const calls = mockFetch({
      'GET /api/v1/shoes': { body: { shoes: [] } },
      'POST /api/v1/shoes': { status: 201, body: { shoe: makeShoe() } },
    });
    renderWithApp(<ShoesManager units="km" />);
    await userEvent.type(await screen.findByLabelText('Name'), 'Hand-me-down');
    await userEvent.type(screen.getByLabelText('Distance before tracking (km)'), '250,5');
    await userEvent.click(screen.getByRole('button', { name: 'Add shoe' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ start_km: 250.5, limit_km: 700 });
  });

  it('refuses a distance before tracking that is not a number, without sending it', async () => {
    const calls = mockFetch({ 'GET /api/v1/shoes': { body: { shoes: [] } } });
    renderWithApp(<ShoesManager units="km" />);
    await userEvent.type(await screen.findByLabelText('Name'), 'Odd');
    await userEvent.type(screen.getByLabelText('Distance before tracking (km)'), '2o0');
    await userEvent.click(screen.getByRole('button', { name: 'Add shoe' }));
    expect(screen.getByLabelText('Distance before tracking (km)')).toHaveAccessibleDescription(
      expect.stringContaining('The distance before must be a number, 0 or more.'),
    );
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('links each shoe to its page and says what it had run before tracking', async () => {
    mockFetch({
      'GET /api/v1/shoes': {
        body: { shoes: [makeShoe({ id: 4, name: 'Worn', start_km: 300, distance: 342, runs: 1 })] },
      },
    });
    renderWithApp(<ShoesManager units="km" />);
    expect(await screen.findByRole('link', { name: 'Worn' })).toHaveAttribute('href', '/shoes/4');
    expect(screen.getByText(/342 km of 700 km \(300 km before tracking\) · 1 run/)).toBeInTheDocument();
  });

  it('refuses a shoe without a name, without sending it', async () => {
    const calls = mockFetch({ 'GET /api/v1/shoes': { body: { shoes: [] } } });
    renderWithApp(<ShoesManager units="km" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add shoe' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('The name field is required.');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('retires a shoe with a PUT of that field alone', async () => {
    const calls = mockFetch({
      'GET /api/v1/shoes': { body: { shoes } },
      'POST /api/v1/shoes/2': { body: { shoe: { ...shoes[1], retired: true } } },
    });
    renderWithApp(<ShoesManager units="km" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Retire Racer' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ retired: true, _method: 'PUT' });
  });
});

describe('ShoeAlerts', () => {
  it('warns about shoes in use past their limit only', async () => {
    mockFetch({
      'GET /api/v1/shoes': {
        body: {
          shoes: [...shoes, makeShoe({ id: 4, name: 'Worn', distance: 712.5, limit_km: 700, over_limit: true })],
        },
      },
    });
    renderWithApp(<ShoeAlerts units="km" />);
    const alert = (await screen.findByText('Worn')).closest<HTMLElement>('.alert')!;
    expect(alert).toHaveTextContent('Worn has run 712.5 km, past its 700 km limit.');
    expect(alert).not.toHaveTextContent('Old pair');
    expect(within(alert).getByRole('link')).toHaveAttribute('href', '/shoes');
  });

  it('says nothing when no shoe in use is past its limit', async () => {
    const calls = mockFetch({ 'GET /api/v1/shoes': { body: { shoes } } });
    const { container } = renderWithApp(<ShoeAlerts units="km" />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(container.querySelector('.alert')).toBeNull();
  });
});
