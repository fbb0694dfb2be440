/**
 * The precision a track keeps (CONTRACT.md §13): what the parsers round to and what storage
 * keeps exactly, so a track read back equals the one parsed. Each rounds to a whole number of
 * its unit (`UNITS_PER`), and never gives -0 (which would not survive storage as 0 does).
 */
export const UNITS_PER = {
  /** Milliseconds. */
  second: 1000,
  /** Millionths of a degree. */
  degree: 1e6,
  /** Centimetres. */
  metre: 100,
  /** Decimetres of elevation. */
  elevationMetre: 10,
  /** Whole beats per minute. */
  beat: 1,
  /** FIT's fractional cadence comes in 1/128 of a cycle per leg: doubled, 1/64 of a step. */
  step: 64,
} as const;

const roundTo = (unitsPer: number) => (value: number) => Math.round(value * unitsPer) / unitsPer + 0;

export const precision = {
  seconds: roundTo(UNITS_PER.second),
  degrees: roundTo(UNITS_PER.degree),
  metres: roundTo(UNITS_PER.metre),
  elevation: roundTo(UNITS_PER.elevationMetre),
  heartRate: roundTo(UNITS_PER.beat),
  cadence: roundTo(UNITS_PER.step),
};
