/**
 * The Speed / Distance line chart. This module pulls in Chart.js, so it is only
 * ever loaded through `LazyPerformanceChart` and ends up in its own chunk.
 * Its colours follow the colour theme (chart-colors.ts).
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
import { useChartColors } from './chart-colors';
import type { ChartLabels, ChartPoint } from './chart-types';

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
  const colors = useChartColors();
  const axis = { ticks: { color: colors.text }, grid: { color: colors.grid } };
  const options: ChartOptions<'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    color: colors.text,
    plugins: { legend: { labels: { color: colors.text } } },
    scales: {
      x: axis,
      y: {
        ...axis,
        beginAtZero: true,
        title: { display: true, text: `${labels.speed} / ${labels.distance}`, color: colors.text },
      },
    },
  };
  const data: ChartData<'line'> = {
    labels: points.map((point) => point.label),
    datasets: [
      {
        label: `Speed (${labels.speed})`,
        data: points.map((point) => point.speed),
        borderColor: colors.speed,
        backgroundColor: colors.speed,
        tension: 0.2,
      },
      {
        label: `Distance (${labels.distance})`,
        data: points.map((point) => point.distance),
        borderColor: colors.distance,
        backgroundColor: colors.distance,
        tension: 0.2,
      },
    ],
  };
  return <Line data={data} options={options} aria-label={label} role="img" />;
}
