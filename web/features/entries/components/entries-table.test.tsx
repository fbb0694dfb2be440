import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { DisplayPreferences } from '../../../lib/display-context';
import { makeEntry } from '../../../test/fixtures';
import { withDisplay } from '../../../test/render';
import { EntriesTable, type EntryRow } from './entries-table';

function renderTable(
  entries: EntryRow[],
  props: {
    userPath?: (id: number) => string;
    onDelete?: () => void;
    place?: 'own' | 'admin';
    shoeName?: (id: number) => string | undefined;
  } = {},
  display: Partial<DisplayPreferences> = {},
) {
  return render(
    <MemoryRouter>
      {withDisplay(
        display,
        <EntriesTable
          entries={entries}
          place={props.place}
          onDelete={props.onDelete ?? vi.fn()}
          userPath={props.userPath}
          shoeName={props.shoeName}
        />,
      )}
    </MemoryRouter>,
  );
}

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('EntriesTable', () => {
  it('formats dates as MM/DD/YYYY and distance, speed and pace with two decimals, as every list', () => {
    renderTable([makeEntry({ id: 3, date: '2024-03-09', distance: 10.5, time: '00:52:30', speed: 12, pace: 5 })]);
    const row = screen.getAllByRole('row')[1]!;
    expect(cellsOf(row).slice(0, 6)).toEqual(['03/09/2024', '—', '10.50', '00:52:30', '12.00', '5.00']);
    expect(within(row).getByRole('link', { name: 'Edit entry of 03/09/2024' })).toHaveAttribute(
      'href',
      '/entry/edit/3',
    );
  });

  it("links each run's date to its page, before the edit pencil", () => {
    renderTable([makeEntry({ id: 3, date: '2024-03-09' })]);
    const links = within(screen.getAllByRole('row')[1]!).getAllByRole('link');
    expect(
      links.map((link) => [link.textContent || link.getAttribute('aria-label'), link.getAttribute('href')]),
    ).toEqual([
      ['03/09/2024', '/entry/3'],
      ['Edit entry of 03/09/2024', '/entry/edit/3'],
    ]);
  });

  it("opens the admin's pages from the list of everyone's runs", () => {
    renderTable([{ ...makeEntry({ id: 8, date: '2024-03-09' }), user: { id: 2, name: 'Ann' } }], {
      place: 'admin',
      userPath: (id) => `/admin/user/show/${id}`,
    });
    expect(screen.getByRole('link', { name: '03/09/2024' })).toHaveAttribute('href', '/admin/entry/8');
    expect(screen.getByRole('link', { name: 'Edit entry of 03/09/2024' })).toHaveAttribute(
      'href',
      '/admin/entry/edit/8',
    );
  });

  it('writes dates and paces as the runner chose: DD/MM/YYYY and 5:21 /km', () => {
    renderTable(
      [makeEntry({ date: '2024-03-09', distance: 10, time: '00:53:30', pace: 5.35 })],
      {},
      {
        dateFormat: 'DD/MM/YYYY',
        paceFormat: 'clock',
      },
    );
    expect(screen.getByRole('columnheader', { name: 'Avg. Pace (/km)' })).toBeInTheDocument();
    const cells = cellsOf(screen.getAllByRole('row')[1]!);
    expect(cells[0]).toBe('09/03/2024');
    expect(cells[5]).toBe('5:21');
  });

  it("shows each run's title, kind and shoe, and names every cell for the phone's cards", () => {
    renderTable([makeEntry({ id: 4, title: 'Morning Run', kind: 'long', shoe_id: 11 })], {
      shoeName: (id) => (id === 11 ? 'Pegasus 40' : undefined),
    });
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('Morning Run');
    for (const header of ['Title', 'Kind', 'Shoe']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(row).getByText('Long')).toBeInTheDocument();
    expect(within(row).getByText('Pegasus 40')).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveClass('table-stack');
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(0, 6)
        .map((cell) => cell.getAttribute('data-label')),
    ).toEqual(['Date', 'Title', 'Distance (km)', 'Time', 'Avg. Speed (km/h)', 'Avg. Pace (min/km)']);
  });

  it('has a User column linking to the runner only when asked', () => {
    const entry = { ...makeEntry({ id: 4 }), user: { id: 9, name: 'Ada' } };
    const { unmount } = renderTable([entry]);
    expect(screen.queryByRole('columnheader', { name: 'User' })).not.toBeInTheDocument();
    unmount();
    renderTable([entry], { userPath: (id) => `/admin/user/show/${id}` });
    expect(screen.getByRole('columnheader', { name: 'User' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/admin/user/show/9');
  });

  it('asks to delete the clicked entry', async () => {
    const onDelete = vi.fn();
    renderTable([makeEntry({ id: 5, date: '2024-01-02' })], { onDelete });
    await userEvent.click(screen.getByRole('button', { name: 'Delete entry of 01/02/2024' }));
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }));
  });
});
