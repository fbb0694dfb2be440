import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paceMinPerKm, speedKmh } from './time.js';
import {
  KM_PER_MILE,
  distanceFromInput,
  distanceIn,
  distanceInputValue,
  distanceToKm,
  elevationIn,
  elevationLabel,
  isUnits,
  paceIn,
  parseDecimal,
  speedIn,
  unitLabels,
} from './units.js';

/** Distances the API stores: metres, 0.001 to 1000 km. */
const storedKm = fc.integer({ min: 1, max: 1_000_000 }).map((metres) => metres / 1000);
const RUNS = { numRuns: 300 };

describe('conversions', () => {
  it('leave kilometres alone', () => {
    expect(distanceIn(42.195, 'km')).toBe(42.195);
    expect(distanceToKm(42.195, 'km')).toBe(42.195);
    expect(paceIn(5.5, 'km')).toBe(5.5);
    expect(speedIn(12, 'km')).toBe(12);
  });

  it('turn km into miles and miles into km', () => {
    expect(distanceIn(KM_PER_MILE, 'mi')).toBe(1);
    expect(distanceIn(42.195, 'mi')).toBeCloseTo(26.2188, 4);
    expect(distanceIn(10, 'mi')).toBeCloseTo(6.2137, 4);
    expect(distanceToKm(1, 'mi')).toBe(1.609);
    expect(distanceToKm(26.2188, 'mi')).toBe(42.195);
    expect(distanceToKm(6.21, 'mi')).toBe(9.994);
    // 6 min/km is 9:39 min/mi; 10 km/h is 6.21 mph.
    expect(paceIn(6, 'mi')).toBeCloseTo(9.656, 3);
    expect(speedIn(10, 'mi')).toBeCloseTo(6.2137, 4);
  });

  it('agree: a distance in miles over a time gives the pace and speed in miles', () => {
    fc.assert(
      fc.property(storedKm, fc.integer({ min: 60, max: 86_400 }), (km, seconds) => {
        const miles = distanceIn(km, 'mi');
        expect(speedIn(speedKmh(km, seconds), 'mi')).toBeCloseTo(miles / (seconds / 3600), 6);
        expect(paceIn(paceMinPerKm(km, seconds), 'mi')).toBeCloseTo(seconds / 60 / miles, 6);
      }),
      RUNS,
    );
  });

  it('go there and back within a metre, and exactly in km', () => {
    fc.assert(
      fc.property(storedKm, (km) => {
        expect(distanceToKm(distanceIn(km, 'km'), 'km')).toBe(km);
        expect(Math.abs(distanceToKm(distanceIn(km, 'mi'), 'mi') - km)).toBeLessThanOrEqual(0.001);
      }),
      RUNS,
    );
  });

  it('name the units', () => {
    expect(unitLabels('km')).toEqual({ distance: 'km', pace: 'min/km', speed: 'km/h' });
    expect(unitLabels('mi')).toEqual({ distance: 'mi', pace: 'min/mi', speed: 'mph' });
    expect(isUnits('mi')).toBe(true);
    expect(isUnits('miles')).toBe(false);
  });

  it('give climbs in metres to a runner in km and in feet to a runner in miles', () => {
    expect(elevationIn(303, 'km')).toBe(303);
    // A foot is 0.3048 m exactly: 303 m is 994.09 ft.
    expect(elevationIn(303, 'mi')).toBeCloseTo(994.094, 3);
    expect(elevationIn(-12, 'mi')).toBeCloseTo(-39.37, 2);
    expect([elevationLabel('km'), elevationLabel('mi')]).toEqual(['m', 'ft']);
  });
});

describe('a distance field', () => {
  it('shows km as stored and miles with at most two decimals', () => {
    expect(distanceInputValue(42.195, 'km')).toBe('42.195');
    expect(distanceInputValue(10, 'km')).toBe('10');
    expect(distanceInputValue(10, 'mi')).toBe('6.21');
    expect(distanceInputValue(8.047, 'mi')).toBe('5');
  });

  it('sends back the stored km when the text was not changed: 10 km shown as 6.21 mi stays 10 km', () => {
    expect(distanceFromInput('6.21', 'mi', 10)).toBe(10);
    expect(distanceFromInput(' 6.21 ', 'mi', 10)).toBe(10);
    // Typed again, the same text is the same distance; another text is what it says.
    expect(distanceFromInput('6.21', 'mi')).toBe(9.994);
    expect(distanceFromInput('6.22', 'mi', 10)).toBe(10.01);
    expect(distanceFromInput('6.210', 'mi', 10)).toBe(9.994);
  });

  it('never drifts, however often a run is shown and saved unchanged', () => {
    fc.assert(
      fc.property(
        storedKm,
        fc.constantFrom('km' as const, 'mi' as const),
        fc.integer({ min: 1, max: 5 }),
        (km, units, saves) => {
          let stored = km;
          for (let i = 0; i < saves; i++)
            stored = distanceFromInput(distanceInputValue(stored, units), units, stored) ?? NaN;
          expect(stored).toBe(km);
        },
      ),
      RUNS,
    );
  });

  it('converts what was typed, and refuses what is not a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600_000 }), (hundredths) => {
        const text = String(hundredths / 100);
        expect(distanceFromInput(text, 'mi')).toBe(distanceToKm(hundredths / 100, 'mi'));
        expect(distanceFromInput(text, 'km')).toBe(distanceToKm(hundredths / 100, 'km'));
      }),
      RUNS,
    );
    for (const text of ['', ' ', 'abc', '1,5,0', '-3', '1e3', '1.2.3', '4x2', '4 2', '1.5,0']) {
      expect(distanceFromInput(text, 'mi', 10)).toBeNull();
    }
  });

  it('takes a comma as the decimal separator: "4,2" is 4.2 km, never 42', () => {
    expect(distanceFromInput('4,2', 'km')).toBe(4.2);
    expect(distanceFromInput(' 42,195 ', 'km')).toBe(42.195);
    expect(distanceFromInput(',5', 'km')).toBe(0.5);
    expect(distanceFromInput('5,', 'km')).toBe(5);
    expect(distanceFromInput('3,1', 'mi')).toBe(distanceToKm(3.1, 'mi'));
  });
});

describe('parseDecimal', () => {
  it('reads a point or a comma the same, and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 999 }), (whole, fraction) => {
        const digits = String(fraction).padStart(3, '0');
        expect(parseDecimal(`${whole},${digits}`)).toBe(parseDecimal(`${whole}.${digits}`));
        expect(parseDecimal(`${whole}.${digits}`)).toBe(Number(`${whole}.${digits}`));
      }),
      RUNS,
    );
    for (const text of ['', 'x', '7o', '1,2,3', '1.2,3', '+1', '-1', 'Infinity', '0x10', '1_000']) {
      expect(parseDecimal(text)).toBeNull();
    }
  });
});
