import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SpinnerOverlay } from './spinner-overlay';

function pending() {
  let resolve: (value: string) => void = () => undefined;
  const promise = new Promise<string>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function Loader({ id, promise }: { id: string; promise: Promise<string> }) {
  useQuery({ queryKey: [id], queryFn: () => promise });
  return null;
}

describe('SpinnerOverlay', () => {
  it('covers the page while a request is in flight and goes away after it', async () => {
    const request = pending();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Loader id="a" promise={request.promise} />
        <SpinnerOverlay />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    await act(async () => request.resolve('done'));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  });

  it('is dismissed by a click, and shows again for the next request', async () => {
    const first = pending();
    const second = pending();
    const client = new QueryClient();
    const { rerender } = render(
      <QueryClientProvider client={client}>
        <Loader id="a" promise={first.promise} />
        <SpinnerOverlay />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByTestId('spinner-overlay'));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(async () => first.resolve('done'));
    await waitFor(() => expect(client.isFetching()).toBe(0));

    rerender(
      <QueryClientProvider client={client}>
        <Loader id="b" promise={second.promise} />
        <SpinnerOverlay />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status')).toBeInTheDocument();
    await act(async () => second.resolve('done'));
  });
});
