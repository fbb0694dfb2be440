import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { makeUser } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { EditUserForm } from './edit-user-form';

describe("the admin's user edit", () => {
  it('puts the role back to the stored one when the change is refused, keeping what else was typed', async () => {
    const admin = makeUser({ id: 1, role: 'admin' });
    const other = makeUser({ id: 2, name: 'Ada Admin', email: 'ada@example.com', role: 'admin' });
    mockFetch({
      'POST /api/v1/user/2': { status: 403, body: { message: 'An application must keep at least one admin.' } },
    });
    const onUpdated = vi.fn();
    renderWithApp(<EditUserForm me={admin} user={other} onUpdated={onUpdated} />);
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'User');
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('An application must keep at least one admin.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Role')).toHaveValue('admin'));
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(onUpdated).not.toHaveBeenCalled();
  });

  it('keeps a role change that was saved', async () => {
    const admin = makeUser({ id: 1, role: 'admin' });
    const runner = makeUser({ id: 3, role: 'user' });
    mockFetch({ 'POST /api/v1/user/3': { body: { user: { ...runner, role: 'manager' } } } });
    const onUpdated = vi.fn();
    renderWithApp(<EditUserForm me={admin} user={runner} onUpdated={onUpdated} />);
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'Manager');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onUpdated).toHaveBeenCalledOnce());
    expect(screen.getByLabelText('Role')).toHaveValue('manager');
  });
});
