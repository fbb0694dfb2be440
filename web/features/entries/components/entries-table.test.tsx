import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { makeEntry } from '../../../test/fixtures';
import { EntriesTable, type EntryRow } from './entries-table';

function renderTable(entries: EntryRow[], props: { userPath?: (id: number) => string; onDelete?: () => void } = {}) {
  return render(
    <MemoryRouter>
      <EntriesTable
        entries={entries}
        editPath={(entry) => `/entry/edit/${entry.id}`}
        onDelete={props.onDelete ?? vi.fn()}
        userPath={props.userPath}
      />
    </MemoryRouter>,
  );
}

describe('EntriesTable', () => {
  it('formats dates as MM/DD/YYYY and speed and pace with two decimals', () => {
    renderTable([makeEntry({ id: 3, date: '2024-03-09', distance: 10.5, time: '00:52:30', speed: 12, pace: 5.0833 })]);
    const row = screen.getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual(['03/09/2024', '—', '10.5', '00:52:30', '12.00', '5.08']);
    expect(within(row).getByRole('link', { name: 'Edit entry of 03/09/2024' })).toHaveAttribute(
      'href',
      '/entry/edit/3',
    );
  });

  it("shows each run's title", () => {
    renderTable([makeEntry({ id: 4, title: 'Morning Run' })]);
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('Morning Run');
    expect(screen.getByRole('columnheader', { name: 'Title' })).toBeInTheDocument();
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
