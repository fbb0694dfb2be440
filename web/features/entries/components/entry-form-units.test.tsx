import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Units } from '../../../../core/units.js';
import { makeEntry } from '../../../test/fixtures';
import { withDisplay } from '../../../test/render';
import { EntriesTable } from './entries-table';
import { EntryForm, entryToFormValues } from './entry-form';

const inUnits = (units: Units, ui: ReactNode) => withDisplay({ units }, ui);

describe('the entry form in miles', () => {
  it('shows a stored run in miles and, saved unchanged, sends the stored km back', async () => {
    const onSubmit = vi.fn();
    const entry = makeEntry({ distance: 10, time: '00:50:00' });
    render(inUnits('mi', <EntryForm initial={entryToFormValues(entry)} onSubmit={onSubmit} />));
    expect(screen.getByLabelText('Distance (mi)')).toHaveValue('6.21');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ distance: 10, time: '00:50:00' }));

    // Another time, same distance: still exactly 10 km.
    await userEvent.clear(screen.getByLabelText('Minutes'));
    await userEvent.type(screen.getByLabelText('Minutes'), '55');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ distance: 10, time: '00:55:00' }));
  });

  it('converts a changed distance, and a new run, from miles to km', async () => {
    const onSubmit = vi.fn();
    const { unmount } = render(
      inUnits('mi', <EntryForm initial={entryToFormValues(makeEntry({ distance: 10 }))} onSubmit={onSubmit} />),
    );
    const field = screen.getByLabelText('Distance (mi)');
    await userEvent.clear(field);
    await userEvent.type(field, '6.22');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ distance: 10.01 }));
    unmount();

    render(inUnits('mi', <EntryForm onSubmit={onSubmit} />));
    await userEvent.type(screen.getByLabelText('Date'), '2024-03-09');
    await userEvent.type(screen.getByLabelText('Distance (mi)'), '5');
    await userEvent.clear(screen.getByLabelText('Hours'));
    await userEvent.type(screen.getByLabelText('Hours'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ distance: 8.047, time: '01:00:00' }));
  });

  it('in km sends what was typed, as before', async () => {
    const onSubmit = vi.fn();
    render(
      inUnits(
        'km',
        <EntryForm
          initial={entryToFormValues(makeEntry({ distance: 42.195, time: '03:30:00' }))}
          onSubmit={onSubmit}
        />,
      ),
    );
    expect(screen.getByLabelText('Distance (km)')).toHaveValue('42.195');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ distance: 42.195 }));
  });
});

describe('the entries table in miles', () => {
  it('shows distance, speed and pace in miles with their units', () => {
    const entry = makeEntry({ distance: 10, time: '01:00:00', speed: 10, pace: 6 });
    render(<MemoryRouter>{inUnits('mi', <EntriesTable entries={[entry]} onDelete={vi.fn()} />)}</MemoryRouter>);
    for (const header of ['Distance (mi)', 'Avg. Speed (mph)', 'Avg. Pace (min/mi)']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const cells = screen.getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(expect.arrayContaining(['6.21', '6.21', '9.66']));
  });
});
