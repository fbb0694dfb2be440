import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Dropdown } from './dropdown';

function renderMenu() {
  render(
    <ul>
      <Dropdown label="Reports">
        <li>
          <a className="dropdown-item" href="#weekly">
            Weekly
          </a>
        </li>
        <li>
          <a className="dropdown-item" href="#monthly">
            Monthly
          </a>
        </li>
      </Dropdown>
    </ul>,
  );
  return screen.getByRole('button', { name: 'Reports' });
}

describe('Dropdown', () => {
  it('opens on click and reports its state', async () => {
    const toggle = renderMenu();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Weekly' }).closest('ul')).toHaveClass('show');
  });

  it('is usable with the keyboard: ArrowDown opens and moves, Escape closes and returns focus', async () => {
    const toggle = renderMenu();
    toggle.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Weekly' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Monthly' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Weekly' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes when an item is chosen or the pointer goes elsewhere', async () => {
    const toggle = renderMenu();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('link', { name: 'Monthly' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    await userEvent.click(document.body);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
