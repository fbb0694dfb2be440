import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore } from './toast-store';
import { Toaster } from './toaster';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('disappear after 5000 ms by default', () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => {
      store.show('Entry was deleted!', 'success');
    });
    expect(screen.getByText('Entry was deleted!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.getByText('Entry was deleted!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Entry was deleted!')).not.toBeInTheDocument();
  });

  it('say one message once while it shows, and keep it for the full delay', () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => {
      store.show('Unauthenticated.', 'danger');
      vi.advanceTimersByTime(3000);
      store.show('Unauthenticated.', 'danger');
      store.show('Unauthenticated.', 'info');
    });
    expect(screen.getAllByText('Unauthenticated.')).toHaveLength(2);
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.getAllByText('Unauthenticated.')).toHaveLength(2);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Unauthenticated.')).not.toBeInTheDocument();
  });

  it('default to the info type and honour a custom delay', () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => {
      store.show('Hello', undefined, 1000);
    });
    expect(screen.getByText('Hello').closest('.toast')).toHaveClass('text-bg-info');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('Hello')).not.toBeInTheDocument();
  });

  it('close with their close button, leaving the others', async () => {
    vi.useRealTimers();
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => {
      store.show('First', 'warning');
      store.show('Second', 'danger');
    });
    const first = screen.getByText('First').closest('.toast') as HTMLElement;
    expect(first).toHaveClass('text-bg-warning');
    await userEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Second');
  });

  it('live in a polite live region', () => {
    render(<Toaster store={createToastStore()} />);
    expect(screen.getByRole('region', { name: 'Notifications' })).toHaveAttribute('aria-live', 'polite');
  });
});
