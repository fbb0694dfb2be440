import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../lib/token-storage';
import { mockFetch } from '../test/fetch-mock';
import { makeUser } from '../test/fixtures';
import { currentPath, renderRoutes } from '../test/render';

/** The account deletion screen's chunk arrives only when the test says so. */
const deleteAccountChunk = vi.hoisted(() => {
  let deliver = () => {};
  const delivered = new Promise<void>((resolve) => {
    deliver = resolve;
  });
  return { delivered, deliver: () => deliver() };
});

vi.mock('./routes/delete-account', async (importOriginal) => {
  await deleteAccountChunk.delivered;
  return importOriginal();
});

// The 404 screen fails to render, to show what a broken screen looks like.
vi.mock('./routes/not-found', () => ({
  Component: () => {
    throw new Error('Broken screen');
  },
}));

const chunkLoad = { timeout: 5000 };

function HistoryBack() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      History back
    </button>
  );
}

describe('the route tree', () => {
  it('shows nothing until the stored session has been checked', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stored-token');
    let answer = (_user: unknown) => {};
    mockFetch({
      'GET /api/v1/user/me': () => new Promise((resolve) => (answer = (user) => resolve({ body: user }))),
    });
    renderRoutes('/policy');
    await new Promise((wait) => setTimeout(wait, 50));
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
    answer(makeUser({ name: 'Rita Runner' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Rita Runner');
  });

  it('keeps the current screen until the next screen’s chunk has arrived', async () => {
    mockFetch({});
    renderRoutes('/policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Account deletion' }));
    await new Promise((wait) => setTimeout(wait, 50));
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    expect(currentPath()).toBe('/policy');
    deleteAccountChunk.deliver();
    expect(await screen.findByRole('heading', { level: 1, name: 'Account deletion' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/delete-account');
  });

  it('shows a notice in the page when a screen fails, until the next navigation', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({});
    renderRoutes('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }, chunkLoad),
    ).toBeInTheDocument();
    expect(screen.getByText('This page could not be shown. Reload the page to try again.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Privacy policy' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('opens a new screen at the top and returns to the scroll position on Back', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    mockFetch({});
    renderRoutes('/policy', undefined, <HistoryBack />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    Object.defineProperty(window, 'scrollY', { value: 640, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    scrollTo.mockClear();

    await userEvent.click(screen.getByRole('link', { name: 'Running Times' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Running Times' }, chunkLoad)).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    await userEvent.click(screen.getByRole('button', { name: 'History back' }));
    await waitFor(() => expect(currentPath()).toBe('/policy'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
    scrollTo.mockRestore();
  });
});
