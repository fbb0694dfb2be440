import { describe, expect, it } from 'vitest';
import { performanceConfig } from './performance-config';

const colors = { speed: '#d63a3a', distance: '#1f7fbf', text: '#212529', grid: 'rgba(0, 0, 0, 0.1)' };

describe('the Speed / Distance chart', () => {
  const { data, options } = performanceConfig(
    [
      { label: '03/01/2026', speed: 12, distance: 10 },
      { label: '03/02/2026', speed: null, distance: null },
      { label: '03/03/2026', speed: 11, distance: 5 },
    ],
    { speed: 'mph', distance: 'mi' },
    colors,
  );

  it('puts speed and distance on two labelled y-axes, one each side', () => {
    const scales = options.scales as Record<string, { position?: string; title?: { display: boolean; text: string } }>;
    expect(scales.speed).toMatchObject({ position: 'left', title: { display: true, text: 'Speed (mph)' } });
    expect(scales.distance).toMatchObject({ position: 'right', title: { display: true, text: 'Distance (mi)' } });
    expect(data.datasets.map((set) => [set.label, set.yAxisID])).toEqual([
      ['Speed (mph)', 'speed'],
      ['Distance (mi)', 'distance'],
    ]);
  });

  it('leaves a gap for a day without runs instead of joining its neighbours', () => {
    expect(data.labels).toEqual(['03/01/2026', '03/02/2026', '03/03/2026']);
    for (const set of data.datasets) {
      expect(set.data[1]).toBeNull();
      expect(set.spanGaps).toBe(false);
    }
  });
});
