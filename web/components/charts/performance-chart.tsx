/**
 * The Speed / Distance line chart. This module pulls in Chart.js, so it is only
 * ever loaded through `LazyPerformanceChart` and ends up in its own chunk.
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
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Line } from 'react-chartjs-2';
import type { ChartPoint } from './chart-types';

ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

export const SPEED_COLOR = '#f87979';
export const DISTANCE_COLOR = '#7acbf9';

const options: ChartOptions<'line'> = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  interaction: { mode: 'index', intersect: false },
  scales: { y: { beginAtZero: true } },
};

export default function PerformanceChart({ points, label }: { points: readonly ChartPoint[]; label: string }) {
  const data: ChartData<'line'> = {
    labels: points.map((point) => point.label),
    datasets: [
      {
        label: 'Speed',
        data: points.map((point) => point.speed),
        borderColor: SPEED_COLOR,
        backgroundColor: SPEED_COLOR,
        tension: 0.2,
      },
      {
        label: 'Distance',
        data: points.map((point) => point.distance),
        borderColor: DISTANCE_COLOR,
        backgroundColor: DISTANCE_COLOR,
        tension: 0.2,
      },
    ],
  };
  return <Line data={data} options={options} aria-label={label} role="img" />;
}
