import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useChartColors } from './chart-colors';

const root = document.documentElement;

afterEach(() => {
  root.removeAttribute('data-bs-theme');
  root.removeAttribute('style');
});

describe('useChartColors', () => {
  it("reads the theme's colours, and reads them again when the theme changes", async () => {
    root.style.setProperty('--bs-body-color', '#212529');
    root.style.setProperty('--rt-chart-speed', '#d63a3a');
    const { result } = renderHook(() => useChartColors());
    expect(result.current.text).toBe('#212529');
    expect(result.current.speed).toBe('#d63a3a');

    // What styles.css does when the theme turns dark: other values under the new attribute.
    await act(async () => {
      root.style.setProperty('--bs-body-color', '#dee2e6');
      root.style.setProperty('--rt-chart-speed', '#ff8a80');
      root.setAttribute('data-bs-theme', 'dark');
      await Promise.resolve();
    });
    expect(result.current.text).toBe('#dee2e6');
    expect(result.current.speed).toBe('#ff8a80');
  });

  it('falls back to readable colours where the variables are missing', () => {
    const { result } = renderHook(() => useChartColors());
    expect(result.current.text).toBe('#212529');
    expect(result.current.grid).toMatch(/^rgba\(/);
  });
});
