import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { makeUser, paged } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { UsersList } from './users-list';

const admin = makeUser({ id: 1, name: 'Ada Admin', email: 'ada@example.com', role: 'admin' });
const runner = makeUser({ id: 2, name: 'Rita Runner', email: 'rita@example.com' });
const otherAdmin = makeUser({ id: 3, name: 'Otto Admin', email: 'otto@example.com', role: 'admin' });

function rowOf(name: string) {
  return screen.getByRole('row', { name: new RegExp(name) });
}

describe('UsersList', () => {
  it('does not offer an admin Delete on their own row (refused to the last admin) and says why', async () => {
    mockFetch({ 'GET /api/v1/user': { body: { users: paged([admin, runner, otherAdmin]) } } });
    renderWithApp(<UsersList me={admin} />);
    await screen.findByText('Rita Runner');
    const own = within(rowOf('Ada Admin')).getByRole('button', { name: 'Delete Ada Admin' });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('This is your own account: you can delete it from your profile.');
    expect(within(rowOf('Rita Runner')).getByRole('button', { name: 'Delete Rita Runner' })).toBeEnabled();
    // Another admin can go: then this one is left.
    expect(within(rowOf('Otto Admin')).getByRole('button', { name: 'Delete Otto Admin' })).toBeEnabled();
  });

  it("shows a manager no Delete on an admin's row, their own from the profile", async () => {
    const manager = makeUser({ id: 4, name: 'Mia Manager', role: 'manager' });
    mockFetch({ 'GET /api/v1/user': { body: { users: paged([admin, runner, manager]) } } });
    renderWithApp(<UsersList me={manager} />);
    await screen.findByText('Rita Runner');
    expect(within(rowOf('Ada Admin')).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(rowOf('Rita Runner')).getByRole('button', { name: 'Delete Rita Runner' })).toBeEnabled();
    expect(within(rowOf('Mia Manager')).getByRole('button', { name: 'Delete Mia Manager' })).toBeDisabled();
  });
});
