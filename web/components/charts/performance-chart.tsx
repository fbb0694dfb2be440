/**
 * The Speed / Distance line chart (performance-config.ts). This module pulls in Chart.js, so it
 * is only ever loaded through `LazyPerformanceChart` and ends up in its own chunk. Its colours
 * follow the colour theme (chart-colors.ts).
 */
import {
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Line } from 'react-chartjs-2';
import charts from 'virtual:i18n/charts';
import { useT } from '../../i18n/runtime';
import { useChartColors } from './chart-colors';
import type { ChartLabels, ChartPoint } from './chart-types';
import { performanceConfig } from './performance-config';

ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

export default function PerformanceChart({
  points,
  label,
  labels = { speed: 'km/h', distance: 'km' },
}: {
  points: readonly ChartPoint[];
  label: string;
  labels?: ChartLabels;
}) {
  useT(charts);
  const { data, options } = performanceConfig(points, labels, useChartColors());
  return <Line data={data} options={options} aria-label={label} role="img" />;
}
