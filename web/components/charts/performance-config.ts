/**
 * What the Speed / Distance chart draws, apart from Chart.js (performance-chart.tsx renders it):
 * speed on a labelled left axis, distance on a labelled right one, a null value a gap.
 */
import type { ChartData, ChartOptions } from 'chart.js';
// The namespace's English texts, for `t` outside a component (performance-chart.tsx calls useT).
import 'virtual:i18n/charts';
import { t } from '../../i18n/runtime';
import { baseChartOptions, themedAxis, type ChartColors } from './chart-colors';
import type { ChartLabels, ChartPoint } from './chart-types';

export function performanceConfig(
  points: readonly ChartPoint[],
  labels: ChartLabels,
  colors: ChartColors,
): { data: ChartData<'line'>; options: ChartOptions<'line'> } {
  const axis = themedAxis(colors);
  const valueAxis = (title: string, position: 'left' | 'right') => ({
    ...axis,
    position,
    beginAtZero: true,
    title: { display: true, text: title, color: colors.text },
  });
  const speedTitle = t('charts.performance.speed', { unit: labels.speed });
  const distanceTitle = t('charts.performance.distance', { unit: labels.distance });
  const series = (label: string, axisId: string, color: string, values: (number | null)[]) => ({
    label,
    data: values,
    yAxisID: axisId,
    borderColor: color,
    backgroundColor: color,
    tension: 0.2,
    spanGaps: false,
  });
  return {
    data: {
      labels: points.map((point) => point.label),
      datasets: [
        series(
          speedTitle,
          'speed',
          colors.speed,
          points.map((point) => point.speed),
        ),
        series(
          distanceTitle,
          'distance',
          colors.distance,
          points.map((point) => point.distance),
        ),
      ],
    },
    options: {
      ...baseChartOptions(colors),
      scales: {
        x: axis,
        speed: valueAxis(speedTitle, 'left'),
        // Its grid lines would not meet the speed axis's: only the left axis draws them.
        distance: { ...valueAxis(distanceTitle, 'right'), grid: { drawOnChartArea: false } },
      },
    },
  };
}
