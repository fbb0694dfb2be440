import { describe, expect, it } from 'vitest';
import { reportYears } from './weekly-report';

describe('report years', () => {
  it('run from the newest year down to the oldest, including the year shown', () => {
    expect(reportYears({ min_year: 2021, max_year: 2023 }, 2023)).toEqual([2023, 2022, 2021]);
    expect(reportYears({ min_year: 2022, max_year: 2023 }, 2025)).toEqual([2025, 2024, 2023, 2022]);
  });
});
