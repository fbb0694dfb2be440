/**
 * The colour theme (CONTRACT.md §11) with Bootstrap's colour modes: `data-bs-theme` on <html>.
 * `auto` follows the system, live. The choice is kept in localStorage, where `/theme.js` (a
 * tiny external script in index.html, allowed by the CSP) reads it before the app loads, so
 * that a page never flashes in the wrong theme.
 */
import type { Theme } from '../../core/preferences.js';

export const THEME_STORAGE_KEY = 'rt-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

let stopFollowing: (() => void) | null = null;

export function storedTheme(): Theme {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'auto';
  } catch {
    return 'auto';
  }
}

/** Shows a theme now, remembers it for the next load, and for `auto` follows the system's changes. */
export function applyTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be refused (private mode): the theme still applies to this page.
  }
  stopFollowing?.();
  stopFollowing = null;
  const query = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  const show = () => {
    const dark = theme === 'dark' || (theme === 'auto' && Boolean(query?.matches));
    document.documentElement.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
  };
  show();
  if (theme === 'auto' && query) {
    query.addEventListener('change', show);
    stopFollowing = () => query.removeEventListener('change', show);
  }
}
