/**
 * The Speed / Distance line chart. This module pulls in Chart.js, so it is only
 * ever loaded through `LazyPerformanceChart` and ends up in its own chunk.
 * Its colours come from CSS variables (styles.css), read again whenever the
 * colour theme (`data-bs-theme` on <html>) changes, so it reads well in both.
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
import { useEffect, useState } from 'react';
import { Line } from 'react-chartjs-2';
import type { ChartLabels, ChartPoint } from './chart-types';

ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface ChartColors {
  speed: string;
  distance: string;
  text: string;
  grid: string;
}

/** The chart's colours in the theme shown now. */
export function readChartColors(root: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(root);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    speed: read('--rt-chart-speed', '#d63a3a'),
    distance: read('--rt-chart-distance', '#1f7fbf'),
    text: read('--bs-body-color', '#212529'),
    grid: read('--bs-border-color-translucent', 'rgba(0, 0, 0, 0.175)'),
  };
}

/** The colours, following changes of the theme. */
function useChartColors(): ChartColors {
  const [colors, setColors] = useState(readChartColors);
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(readChartColors()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

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
