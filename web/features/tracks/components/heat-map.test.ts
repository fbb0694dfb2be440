import { describe, expect, it } from 'vitest';
import { frameCovers, heatWindow, MAX_SIDE, prepareHeat } from './heat-map';

// Two short lines in London (precision-5 polylines) and an empty one.
const lines = ['_riyH~lVoKg^wQg^', 'opkyH~lVg^o}@', ''];

describe('the heat map', () => {
  it('projects every position of every run once, in order, into the unit square', () => {
    const data = prepareHeat(lines);
    expect(Array.from(data.starts)).toEqual([0, 3, 5, 5]);
    expect(data.xs).toHaveLength(5);
    for (let k = 0; k < 5; k++) {
      // London: just west of Greenwich, north of the equator.
      expect(data.xs[k]).toBeGreaterThan(0.4996);
      expect(data.xs[k]).toBeLessThan(0.5);
      expect(data.ys[k]).toBeGreaterThan(0.3);
      expect(data.ys[k]).toBeLessThan(0.35);
    }
  });

  it('draws the runs’ extent at a zoom, and at most MAX_SIDE pixels a side around the view when larger', () => {
    const data = prepareHeat(lines);
    const low = heatWindow(data, 12, { x: 0, y: 0 });
    expect(low.clipped).toBe(false);
    expect(low.width).toBeLessThan(200);
    const high = heatWindow(data, 19, { x: data.xs[0]! * 256 * 2 ** 19, y: data.ys[0]! * 256 * 2 ** 19 });
    expect(high.clipped).toBe(true);
    expect(high.width).toBeLessThanOrEqual(MAX_SIDE);
    expect(high.height).toBeLessThanOrEqual(MAX_SIDE);
  });

  it('keeps a zoom’s drawing while the view pans inside it, and draws again on another zoom or beyond it', () => {
    const canvas = {} as OffscreenCanvas;
    const whole = { zoom: 12, window: { x: 0, y: 0, width: 100, height: 100, clipped: false }, canvas };
    expect(frameCovers(whole, 12, { x: 5000, y: 5000, width: 800, height: 600 })).toBe(true);
    expect(frameCovers(whole, 13, { x: 0, y: 0, width: 10, height: 10 })).toBe(false);
    const cut = { zoom: 18, window: { x: 0, y: 0, width: 2048, height: 2048, clipped: true }, canvas };
    expect(frameCovers(cut, 18, { x: 100, y: 100, width: 800, height: 600 })).toBe(true);
    expect(frameCovers(cut, 18, { x: 1500, y: 100, width: 800, height: 600 })).toBe(false);
  });
});
