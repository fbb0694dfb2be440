import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { SPEED_TOO_HIGH_MESSAGE } from '../../../../core/messages.js';
import { dateInZone } from '../../../../core/time.js';
import { makeEntry, makeShoe } from '../../../test/fixtures';
import { renderWithApp, withDisplay } from '../../../test/render';
import { CreateEntryForm } from './create-entry-form';
import { EditEntryForm } from './edit-entry-form';
import type { ShoeChoice } from './entry-extras';
import { EntryForm, entryToFormValues } from './entry-form';

/** Date 2024-03-09, the distance and the time as typed. */
async function fillRunAs(distance: string, hours: string, minutes: string) {
  await userEvent.clear(screen.getByLabelText('Date'));
  await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
  await userEvent.type(screen.getByLabelText(/^Distance/), distance);
  await userEvent.clear(screen.getByLabelText('Hours'));
  await userEvent.type(screen.getByLabelText('Hours'), hours);
  await userEvent.clear(screen.getByLabelText('Minutes'));
  await userEvent.type(screen.getByLabelText('Minutes'), minutes);
}

describe('EntryForm', () => {
  it('starts with empty date and distance and 00 time parts, each at most 2 characters', () => {
    render(<EntryForm onSubmit={vi.fn()} />);
    expect(screen.getByLabelText('Date')).toHaveValue('');
    expect(screen.getByLabelText('Distance (km)')).toHaveValue('');
    // A text field with a decimal keypad: a number field would drop what it cannot read ("4,2" became 42).
    expect(screen.getByLabelText('Distance (km)')).toHaveAttribute('inputMode', 'decimal');
    for (const label of ['Hours', 'Minutes', 'Seconds']) {
      expect(screen.getByLabelText(label)).toHaveValue('00');
      expect(screen.getByLabelText(label)).toHaveAttribute('maxLength', '2');
    }
  });

  it('pads each time part to two digits and sends HH:MM:SS', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
    await userEvent.type(screen.getByLabelText('Distance (km)'), '10.25');
    await userEvent.clear(screen.getByLabelText('Hours'));
    await userEvent.type(screen.getByLabelText('Hours'), '1');
    await userEvent.clear(screen.getByLabelText('Minutes'));
    await userEvent.type(screen.getByLabelText('Minutes'), '5');
    await userEvent.clear(screen.getByLabelText('Seconds'));
    await userEvent.type(screen.getByLabelText('Seconds'), '7');
    await userEvent.tab();

    expect(screen.getByLabelText('Hours')).toHaveValue('01');
    expect(screen.getByLabelText('Minutes')).toHaveValue('05');
    expect(screen.getByLabelText('Seconds')).toHaveValue('07');

    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({ date: '2024-03-09', distance: 10.25, time: '01:05:07' });
  });

  it('keeps what is typed in a time part and refuses a letter: "7o" is an error, not "07"', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
    await userEvent.type(screen.getByLabelText('Distance (km)'), '10');
    const minutes = screen.getByLabelText('Minutes');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '7o5');
    await userEvent.tab();
    expect(minutes).toHaveValue('7o');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(minutes).toHaveAttribute('aria-invalid', 'true');
    expect(minutes).toHaveAccessibleDescription('Hours must be 00-99, minutes and seconds 00-59, in digits.');
  });

  it('takes a comma as the decimal separator: "4,2" is 4.2 km, never 42', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await fillRunAs('4,2', '00', '25');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({ date: '2024-03-09', distance: 4.2, time: '00:25:00' });
  });

  it('says a distance that is not a number is not one, and sends nothing', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await fillRunAs('4x2', '00', '25');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Distance (km)')).toHaveValue('4x2');
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription('The distance must be a number.');
  });

  it('shows the speed error (over 50 km/h) under the distance and the time together', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await fillRunAs('42', '00', '25');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription(SPEED_TOO_HIGH_MESSAGE);
    expect(screen.getByLabelText('Minutes')).toHaveAccessibleDescription(SPEED_TOO_HIGH_MESSAGE);
  });

  it("shows the server's speed error, sent on the time, under the distance too", () => {
    render(<EntryForm onSubmit={vi.fn()} serverErrors={{ time: [SPEED_TOO_HIGH_MESSAGE] }} />);
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription(SPEED_TOO_HIGH_MESSAGE);
    expect(screen.getByLabelText('Hours')).toHaveAccessibleDescription(SPEED_TOO_HIGH_MESSAGE);
  });

  it.each([
    ['10', '20', 'faster', '10 km in 00:20:00 is 30.00 km/h, faster than 25.00 km/h.'],
    ['1', '30', 'slower', '1 km in 00:30:00 is 2.00 km/h, slower than 3.00 km/h.'],
  ])('asks "Are you sure?" before saving %s km in %s minutes (%s than usual)', async (km, minutes, _way, text) => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await fillRunAs(km, '00', minutes);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure?' });
    expect(dialog).toHaveTextContent(text);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check again' }));
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save anyway' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ distance: Number(km) }));
  });

  it('does not ask about a usual run', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await fillRunAs('10', '00', '50');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it("keeps the date empty but fills in today (in the runner's zone) with the Today button", async () => {
    render(withDisplay({ timeZone: 'Pacific/Kiritimati' }, <EntryForm onSubmit={vi.fn()} />));
    expect(screen.getByLabelText('Date')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByLabelText('Date')).toHaveValue(dateInZone(new Date(), 'Pacific/Kiritimati'));
  });

  it('refuses an empty run and says why, without submitting', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Date')).toHaveAccessibleDescription('The date field is required.');
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription('The distance field is required.');
    expect(screen.getByLabelText('Minutes')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Minutes')).toHaveAccessibleDescription('The time must be greater than 00:00:00.');
  });

  it('shows server errors under the matching fields', () => {
    render(
      <EntryForm
        onSubmit={vi.fn()}
        serverErrors={{ distance: ['The distance must not be greater than 1000.'], time: ['The time is odd.'] }}
      />,
    );
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription(
      'The distance must not be greater than 1000.',
    );
    expect(screen.getByLabelText('Distance (km)')).toHaveClass('is-invalid');
    expect(screen.getByLabelText('Hours')).toHaveAccessibleDescription('The time is odd.');
  });

  it('takes a message away as soon as its field is fixed after a failed submit', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByLabelText('Date')).toHaveAccessibleDescription('The date field is required.');
    await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
    expect(screen.getByLabelText('Date')).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText('Date')).not.toHaveAttribute('aria-invalid');
    // The others still say what is wrong with them, and a field broken again says so at once.
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription('The distance field is required.');
    await userEvent.type(screen.getByLabelText('Distance (km)'), '10');
    expect(screen.getByLabelText('Distance (km)')).not.toHaveAccessibleDescription();
    await userEvent.clear(screen.getByLabelText('Distance (km)'));
    expect(screen.getByLabelText('Distance (km)')).toHaveAccessibleDescription('The distance field is required.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("takes a server message away once its field changes, and keeps the others'", async () => {
    function Sent() {
      const [errors, setErrors] = useState({});
      return (
        <EntryForm
          initial={{ ...entryToFormValues(makeEntry({ date: '2024-03-09', distance: 5, time: '00:30:00' })) }}
          serverErrors={errors}
          onSubmit={() =>
            setErrors({ distance: ['The distance must not be greater than 1000.'], time: ['The time is odd.'] })
          }
        />
      );
    }
    render(<Sent />);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByLabelText('Hours')).toHaveAccessibleDescription('The time is odd.');
    await userEvent.type(screen.getByLabelText('Distance (km)'), '1');
    expect(screen.getByLabelText('Distance (km)')).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText('Hours')).toHaveAccessibleDescription('The time is odd.');
    await userEvent.clear(screen.getByLabelText('Seconds'));
    await userEvent.type(screen.getByLabelText('Seconds'), '5');
    expect(screen.getByLabelText('Hours')).not.toHaveAccessibleDescription();
  });

  it("dates a new run today in the runner's time zone", () => {
    renderWithApp(<CreateEntryForm />, { display: { timeZone: 'Pacific/Kiritimati' } });
    expect(screen.getByLabelText('Date')).toHaveValue(dateInZone(new Date(), 'Pacific/Kiritimati'));
    renderWithApp(<CreateEntryForm />, { display: { timeZone: 'Pacific/Pago_Pago' } });
    expect(screen.getAllByLabelText('Date')[1]).toHaveValue(dateInZone(new Date(), 'Pacific/Pago_Pago'));
  });
});

describe('edit prefill', () => {
  it('splits the time with zero padding (never dashes)', () => {
    expect(entryToFormValues(makeEntry({ date: '2024-03-09', distance: 42.195, time: '03:05:09' }))).toEqual({
      date: '2024-03-09',
      distance: '42.195',
      hours: '03',
      minutes: '05',
      seconds: '09',
      title: '',
      notes: '',
      kind: '',
      effort: '',
      shoeId: '',
    });
    expect(entryToFormValues(makeEntry({ time: '1:2:3' }))).toMatchObject({
      hours: '01',
      minutes: '02',
      seconds: '03',
    });
  });

  it('loads the run into the form and saves it with _method PUT', async () => {
    const entry = makeEntry({ id: 42, date: '2024-03-09', distance: 5.5, time: '00:37:03' });
    const calls = mockFetch({
      'GET /api/v1/entry/42': { body: { entry } },
      'POST /api/v1/entry/42': { body: { entry: { ...entry, distance: 6 } } },
    });
    const onUpdated = vi.fn();
    renderWithApp(<EditEntryForm id={42} onUpdated={onUpdated} />);

    expect(await screen.findByLabelText('Date')).toHaveValue('2024-03-09');
    expect(screen.getByLabelText('Distance (km)')).toHaveValue('5.5');
    expect(screen.getByLabelText('Hours')).toHaveValue('00');
    expect(screen.getByLabelText('Minutes')).toHaveValue('37');
    expect(screen.getByLabelText('Seconds')).toHaveValue('03');

    await userEvent.clear(screen.getByLabelText('Distance (km)'));
    await userEvent.type(screen.getByLabelText('Distance (km)'), '6');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(onUpdated).toHaveBeenCalledOnce());
    const update = calls.find((call) => call.method === 'POST');
    expect(update?.body).toEqual({ date: '2024-03-09', distance: 6, time: '00:37:03', _method: 'PUT' });
    expect(await screen.findByText('Time record was updated!')).toBeInTheDocument();
  });
});

describe('the fields of §8: More and the shoe', () => {
  const shoes = [
    makeShoe({ id: 1, name: 'Daily', is_default: true }),
    makeShoe({ id: 2, name: 'Racer' }),
    makeShoe({ id: 3, name: 'Old pair', retired: true }),
  ];

  async function fillRun() {
    await userEvent.clear(screen.getByLabelText('Date'));
    await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
    await userEvent.type(screen.getByLabelText('Distance (km)'), '10');
    await userEvent.clear(screen.getByLabelText('Hours'));
    await userEvent.type(screen.getByLabelText('Hours'), '1');
  }

  it('folds title, notes, kind and effort under More, closed at first', () => {
    render(<EntryForm onSubmit={vi.fn()} />);
    const more = screen.getByText(/^More/).closest('details')!;
    expect(more).not.toHaveAttribute('open');
    expect(within(more).getByLabelText('Title')).toBeInTheDocument();
    expect(within(more).getByLabelText('Notes').tagName).toBe('TEXTAREA');
    expect(within(more).getByLabelText('Kind')).toHaveValue('');
    expect(
      within(more)
        .getAllByRole('option', { name: /^\d+$/ })
        .map((o) => o.textContent),
    ).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    // Without shoes there is no shoe select.
    expect(screen.queryByLabelText('Shoe')).not.toBeInTheDocument();
  });

  it('sends the extras that were filled in, and the chosen shoe', async () => {
    const onSubmit = vi.fn();
    render(<EntryForm onSubmit={onSubmit} shoes={shoes} />);
    await fillRun();
    await userEvent.click(screen.getByText(/^More/));
    await userEvent.type(screen.getByLabelText('Title'), ' Tempo Tuesday ');
    await userEvent.type(screen.getByLabelText('Notes'), 'Windy.{enter}Felt good.');
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'workout');
    await userEvent.selectOptions(screen.getByLabelText('Effort (1-10)'), '7');
    await userEvent.selectOptions(screen.getByLabelText('Shoe'), 'Racer');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({
      date: '2024-03-09',
      distance: 10,
      time: '01:00:00',
      title: 'Tempo Tuesday',
      notes: 'Windy.\nFelt good.',
      kind: 'workout',
      effort: 7,
      shoe_id: 2,
    });
  });

  it('preselects the default shoe on a new run and never offers a retired one', async () => {
    const calls = mockFetch({ 'POST /api/v1/entry': { status: 201, body: { entry: makeEntry({ shoe_id: 1 }) } } });
    renderWithApp(<CreateEntryForm shoes={shoes} />);
    const select = screen.getByLabelText('Shoe');
    expect(select).toHaveDisplayValue('Daily');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['No shoe', 'Daily', 'Racer']);
    await fillRun();
    await userEvent.selectOptions(select, 'No shoe');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ shoe_id: null });
  });

  it("keeps a run's retired shoe on edit, and clears a title emptied", async () => {
    const entry = makeEntry({ id: 42, user_id: 5, title: 'Long one', effort: 4, shoe_id: 3 });
    const calls = mockFetch({
      'GET /api/v1/entry/42': { body: { entry } },
      'POST /api/v1/entry/42': { body: { entry } },
    });
    renderWithApp(<EditEntryForm id={42} onUpdated={vi.fn()} shoes={shoes} viewerId={5} />);
    const select = await screen.findByLabelText('Shoe');
    expect(select).toHaveDisplayValue('Old pair (retired)');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['No shoe', 'Daily', 'Racer', 'Old pair (retired)']);
    expect(screen.getByLabelText('Title')).toHaveValue('Long one');
    expect(screen.getByLabelText('Effort (1-10)')).toHaveValue('4');
    await userEvent.click(screen.getByText(/^More/));
    await userEvent.clear(screen.getByLabelText('Title'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    // Untouched fields are not sent (unchanged on the server); the emptied title is cleared.
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      date: entry.date,
      distance: entry.distance,
      time: entry.time,
      title: null,
      _method: 'PUT',
    });
  });

  /** The screen's shoes query, answered only when the test presses "Shoes arrive". */
  function LateShoes({ form }: { form: (shoes: readonly ShoeChoice[] | undefined) => React.ReactNode }) {
    const [arrived, setArrived] = useState(false);
    return (
      <>
        {form(arrived ? shoes : undefined)}
        <button type="button" onClick={() => setArrived(true)}>
          Shoes arrive
        </button>
      </>
    );
  }

  it('keeps what was typed on a new run when the shoes arrive after the form, and preselects the default one', async () => {
    const calls = mockFetch({ 'POST /api/v1/entry': { status: 201, body: { entry: makeEntry({ shoe_id: 1 }) } } });
    renderWithApp(<LateShoes form={(late) => <CreateEntryForm shoes={late} />} />);
    await fillRun();
    expect(screen.queryByLabelText('Shoe')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Shoes arrive' }));
    expect(screen.getByLabelText('Shoe')).toHaveDisplayValue('Daily');
    expect(screen.getByLabelText('Distance (km)')).toHaveValue('10');
    expect(screen.getByLabelText('Hours')).toHaveValue('01');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    // The default shoe is the one a run without shoe_id gets (§11).
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      date: '2024-03-09',
      distance: 10,
      time: '01:00:00',
    });
  });

  it('keeps a change typed on the edit screen when the shoes arrive after the run', async () => {
    const entry = makeEntry({ id: 42, user_id: 5, time: '00:40:00', shoe_id: 2 });
    const calls = mockFetch({
      'GET /api/v1/entry/42': { body: { entry } },
      'POST /api/v1/entry/42': { body: { entry } },
    });
    renderWithApp(
      <LateShoes form={(late) => <EditEntryForm id={42} onUpdated={vi.fn()} shoes={late} viewerId={5} />} />,
    );
    await userEvent.clear(await screen.findByLabelText('Minutes'));
    await userEvent.type(screen.getByLabelText('Minutes'), '32');
    await userEvent.click(screen.getByRole('button', { name: 'Shoes arrive' }));
    expect(screen.getByLabelText('Shoe')).toHaveDisplayValue('Racer');
    expect(screen.getByLabelText('Minutes')).toHaveValue('32');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      date: entry.date,
      distance: entry.distance,
      time: '00:32:00',
      _method: 'PUT',
    });
  });

  it("offers no shoe select on another runner's run (an admin's edit)", async () => {
    const entry = makeEntry({ id: 43, user_id: 9, shoe_id: 77 });
    mockFetch({ 'GET /api/v1/entry/43': { body: { entry } } });
    renderWithApp(<EditEntryForm id={43} onUpdated={vi.fn()} shoes={shoes} viewerId={5} />);
    expect(await screen.findByLabelText('Date')).toHaveValue(entry.date);
    expect(screen.queryByLabelText('Shoe')).not.toBeInTheDocument();
  });

  it('opens More on a run that has one of its fields filled in', async () => {
    const entry = makeEntry({ id: 44, notes: 'Hilly.' });
    mockFetch({ 'GET /api/v1/entry/44': { body: { entry } } });
    renderWithApp(<EditEntryForm id={44} onUpdated={vi.fn()} />);
    expect(await screen.findByLabelText('Notes')).toHaveValue('Hilly.');
    expect(screen.getByText(/^More/).closest('details')).toHaveAttribute('open');
  });

  it('opens More to show a server error on one of its fields', () => {
    render(
      <EntryForm onSubmit={vi.fn()} serverErrors={{ effort: ['The effort must be a whole number from 1 to 10.'] }} />,
    );
    expect(screen.getByText(/^More/).closest('details')).toHaveAttribute('open');
    expect(screen.getByLabelText('Effort (1-10)')).toHaveAccessibleDescription(
      'The effort must be a whole number from 1 to 10.',
    );
  });
});
