import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { makeAppConfig } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';

describe('the login page with single sign-on', () => {
  it('offers the provider beside the password form', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig({ oidc: { name: 'Pocket ID' } }) } });
    renderRoutes('/login');
    expect(await screen.findByRole('link', { name: 'Sign in with Pocket ID' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('under OIDC_ONLY shows the provider only, and the password form when an admin asks for it', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig({ oidc: { name: 'Pocket ID', only: true } }) } });
    renderRoutes('/login');
    expect(await screen.findByRole('link', { name: 'Sign in with Pocket ID' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a password instead (admins)' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
  });
});
