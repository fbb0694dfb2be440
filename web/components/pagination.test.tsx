import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pageNumbers, Pagination } from './pagination';

describe('Pagination', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<Pagination label="Pages" items={pageNumbers(1)} current={1} onSelect={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('marks the current page and selects another', async () => {
    const onSelect = vi.fn();
    render(<Pagination label="Pages" items={pageNumbers(3)} current={2} onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onSelect.mock.calls).toEqual([[3], [1]]);
  });

  it('keeps first, last and the neighbours of the current page, with gaps between', () => {
    render(<Pagination label="Pages" items={pageNumbers(20)} current={10} onSelect={vi.fn()} />);
    const shown = screen.getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(shown).toEqual(['1', '8', '9', '10', '11', '12', '20']);
    expect(screen.getAllByText('…')).toHaveLength(2);
  });

  it('disables Next on the last page', () => {
    render(<Pagination label="Pages" items={pageNumbers(2)} current={2} onSelect={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
