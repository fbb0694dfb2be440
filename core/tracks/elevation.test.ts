import { describe, expect, it } from 'vitest';
import { elevationFromSamples, elevationOf } from './elevation.js';

const nan = Number.NaN;

describe('elevation from the samples', () => {
  it('moves the reference only on a change of at least 3 m, in whole decimetres', () => {
    // 100 -> 103 gains 3 m (102.9 is not enough); 103 -> 99.9 loses 3.1 m; 99.9 -> 96.9 loses 3 m.
    const ele = [100, 101, 102.9, 103, 101, 99.9, 100.1, nan, 96.9];
    expect(elevationFromSamples(ele)).toEqual({ gain: 3, loss: 6 });
  });

  it('lets wiggles under 3 m pass and follows the climb 3 m at a time', () => {
    // Decimetres: 100 (r), 120, 110, 129, 130 (+30, r), 140, 159, 160 (+30, r), 131, 130 (-30, r).
    const ele = [10, 12, 11, 12.9, 13, 14, 15.9, 16, 13.1, 13];
    expect(elevationFromSamples(ele)).toEqual({ gain: 6, loss: 3 });
  });

  it('rounds whole metres halves up', () => {
    expect(elevationFromSamples([0, 3.5, 0])).toEqual({ gain: 4, loss: 4 });
    expect(elevationFromSamples([0, 3.4])).toEqual({ gain: 3, loss: 0 });
  });

  it('starts from the first sample that has an elevation and is null without one', () => {
    expect(elevationFromSamples([nan, 10, 13])).toEqual({ gain: 3, loss: 0 });
    expect(elevationFromSamples([nan, nan])).toBeNull();
    expect(elevationFromSamples(null)).toBeNull();
    expect(elevationFromSamples([12.3])).toEqual({ gain: 0, loss: 0 });
  });
});

describe("a track's elevation", () => {
  it("takes the device's totals when the file states them, with or without samples", () => {
    expect(elevationOf({ ele: [0, 50], deviceElevation: { gain: 123.4, loss: 99.6 } })).toEqual({
      gain: 123,
      loss: 100,
      source: 'device',
    });
    expect(elevationOf({ ele: null, deviceElevation: { gain: 7, loss: 8 } })?.source).toBe('device');
  });

  it('counts from the samples otherwise, and is null without either', () => {
    expect(elevationOf({ ele: [0, 50], deviceElevation: null })).toEqual({ gain: 50, loss: 0, source: 'track' });
    expect(elevationOf({ ele: null, deviceElevation: null })).toBeNull();
  });
});
