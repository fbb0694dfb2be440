import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, storedTheme, THEME_STORAGE_KEY } from './theme';

/** A stand-in for the system's colour scheme that a test can switch. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    switchTo(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
    listeners,
  };
}

const shown = () => document.documentElement.getAttribute('data-bs-theme');

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('data-bs-theme');
});

describe('applyTheme', () => {
  it('shows light or dark whatever the system, and remembers the choice for the next load', () => {
    const system = fakeSystem(true);
    applyTheme('light');
    expect(shown()).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    system.switchTo(true);
    expect(shown()).toBe('light');
    applyTheme('dark');
    expect(shown()).toBe('dark');
    expect(storedTheme()).toBe('dark');
    expect(system.listeners.size).toBe(0);
  });

  it('auto follows the system, live, until another theme is chosen', () => {
    const system = fakeSystem(false);
    applyTheme('auto');
    expect(shown()).toBe('light');
    system.switchTo(true);
    expect(shown()).toBe('dark');
    system.switchTo(false);
    expect(shown()).toBe('light');
    applyTheme('dark');
    system.switchTo(false);
    expect(shown()).toBe('dark');
    expect(system.listeners.size).toBe(0);
  });

  it('reads an unknown stored value as auto', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    expect(storedTheme()).toBe('auto');
  });
});
