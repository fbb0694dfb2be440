import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pagination, visibleSlots } from './pagination';

describe('Pagination', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<Pagination label="Pages" last={1} current={1} onSelect={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('marks the current page and selects another', async () => {
    const onSelect = vi.fn();
    render(<Pagination label="Pages" last={3} current={2} onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onSelect.mock.calls).toEqual([[3], [1]]);
  });

  it('keeps first, last and the neighbours of the current page, with gaps between', () => {
    render(<Pagination label="Pages" last={20} current={10} onSelect={vi.fn()} />);
    const shown = screen.getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(shown).toEqual(['1', '8', '9', '10', '11', '12', '20']);
    expect(screen.getAllByText('…')).toHaveLength(2);
  });

  it('disables Next on the last page', () => {
    render(<Pagination label="Pages" last={2} current={2} onSelect={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows values of its own (years), and names them', async () => {
    const years = [2026, 2025, 2024];
    const onSelect = vi.fn();
    render(
      <Pagination
        label="Years"
        last={3}
        current={1}
        valueAt={(p) => years[p - 1]!}
        describe={(year) => `Year ${year}`}
        onSelect={onSelect}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Year 2024' }));
    expect(onSelect).toHaveBeenCalledWith(3);
  });

  it('computes its slots from the current and last page alone, whatever the number of pages', () => {
    // 10,000,000 runs at 15 a page: as few slots as 20 pages.
    expect(visibleSlots(333_334, 666_667, 2)).toEqual([
      { kind: 'item', position: 1 },
      { kind: 'gap', key: 'gap-before' },
      ...[333_332, 333_333, 333_334, 333_335, 333_336].map((position) => ({ kind: 'item', position })),
      { kind: 'gap', key: 'gap-after' },
      { kind: 'item', position: 666_667 },
    ]);
    expect(visibleSlots(1, 666_667, 2).map((s) => (s.kind === 'item' ? s.position : '…'))).toEqual([
      1,
      2,
      3,
      '…',
      666_667,
    ]);
    expect(visibleSlots(4, 5, 2).map((s) => (s.kind === 'item' ? s.position : '…'))).toEqual([1, 2, 3, 4, 5]);
  });
});
