import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenOnScreen } from './when-on-screen';

/** The browser's observer, as jsdom has none: the test says how much of the place is on screen. */
class Observer {
  static last: Observer | null = null;
  constructor(
    readonly report: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    Observer.last = this;
  }
  observe() {}
  disconnect() {}
  show(ratio: number) {
    const entry = { isIntersecting: ratio > 0, intersectionRatio: ratio } as IntersectionObserverEntry;
    act(() => this.report([entry], this as unknown as IntersectionObserver));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  Observer.last = null;
});

const drawAChart = () =>
  render(
    <WhenOnScreen height={250}>
      <p>the chart</p>
    </WhenOnScreen>,
  );

describe('WhenOnScreen', () => {
  it('draws a chart once a quarter of its place is on screen, not for its first strip', async () => {
    vi.stubGlobal('IntersectionObserver', Observer);
    drawAChart();
    const observer = Observer.last!;
    expect(observer.options?.threshold).toBe(0.25);
    // The dashboard's chart, 16 px of its 250 above a phone's fold.
    observer.show(16 / 250);
    expect(screen.queryByText('the chart')).toBeNull();
    observer.show(0.3);
    expect(await screen.findByText('the chart')).toBeTruthy();
  });

  it('draws at once where the browser has no observer', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    drawAChart();
    expect(await screen.findByText('the chart')).toBeTruthy();
  });
});
