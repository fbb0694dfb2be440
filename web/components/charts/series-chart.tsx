/**
 * Lines or bars of named series over labels. This module pulls in Chart.js, so it is only ever
 * loaded through `LazySeriesChart` and ends up in its own chunk. Its text and grid follow the colour
 * theme (chart-colors.ts); each series brings its own colour.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Chart } from 'react-chartjs-2';
import { formatClock } from '../../../core/format.js';
import { baseChartOptions, themedAxis, useChartColors } from './chart-colors';
import type { SeriesChartProps } from './chart-types';

ChartJS.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

export default function SeriesChart({ kind, labels, series, label, yTitle, reverse }: SeriesChartProps) {
  const colors = useChartColors();
  const axis = themedAxis(colors);
  const data: ChartData<'bar' | 'line'> = {
    labels: [...labels],
    datasets: series.map((s) => ({
      label: s.label,
      data: [...s.values],
      borderColor: s.color,
      backgroundColor: s.color,
      pointRadius: kind === 'line' && labels.length > 30 ? 0 : 3,
      tension: 0.2,
      spanGaps: true,
    })),
  };
  const options: ChartOptions<'bar' | 'line'> = {
    ...baseChartOptions(colors),
    scales: {
      x: axis,
      y: {
        ...axis,
        beginAtZero: !reverse,
        reverse: Boolean(reverse),
        title: yTitle ? { display: true, text: yTitle, color: colors.text } : undefined,
        ticks: reverse ? { color: colors.text, callback: (value) => formatClock(Number(value)) } : axis.ticks,
      },
    },
  };
  return <Chart type={kind} data={data} options={options} aria-label={label} role="img" />;
}
