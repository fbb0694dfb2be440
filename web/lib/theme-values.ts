/**
 * Values drawn from the colour theme's CSS variables (charts, maps), read again whenever the theme
 * (`data-bs-theme` on <html>, web/lib/theme.ts) changes, so that a canvas redraws in the new colours.
 */
import { useEffect, useState } from 'react';

/** A CSS variable of the root element, or `fallback` where it is not set. */
export function cssVariable(name: string, fallback: string, root: Element = document.documentElement): string {
  return getComputedStyle(root).getPropertyValue(name).trim() || fallback;
}

/** `read()` now, and again after every change of the theme. */
export function useThemeValues<T>(read: () => T): T {
  const [values, setValues] = useState(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setValues(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
    return () => observer.disconnect();
  }, [read]);
  return values;
}
