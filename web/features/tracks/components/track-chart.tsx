/**
 * One chart of a run against distance (pace, elevation, heart rate). This module pulls in Chart.js,
 * so it is only ever loaded through `LazyTrackChart` and ends up in a chunk of its own.
 *
 * The charts share one hover: hovering one reports the point under the pointer (`onSpot`), and
 * every chart shows the point it is given (`spot`) with its tooltip and a vertical rule, so the
 * same distance lights up on all of them and on the map.
 */
import {
  Chart as ChartJS,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ActiveElement,
  type ChartData,
  type ChartOptions,
  type Plugin,
} from 'chart.js';
import { useEffect, useMemo, useRef } from 'react';
import { Line } from 'react-chartjs-2';
import runTexts from 'virtual:i18n/run';
import { useChartColors } from '../../../components/charts/chart-colors';
import { t, useT } from '../../../i18n/runtime';
import { cssVariable, useThemeValues } from '../../../lib/theme-values';
import type { TrackChartProps, TrackChartTone } from './track-chart-types';

ChartJS.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

function readToneColors(): Record<TrackChartTone, string> {
  return {
    pace: cssVariable('--rt-track-pace', '#0b7285'),
    elevation: cssVariable('--rt-track-elevation', '#5c7f1e'),
    heartRate: cssVariable('--rt-track-heart-rate', '#c92a2a'),
  };
}

/** The index of the point under the pointer, or null when there is none. */
export function spotOfHover(elements: readonly ActiveElement[]): number | null {
  return elements[0]?.index ?? null;
}

/** A vertical rule through the active point, across the chart area. */
function spotRule(color: string): Plugin<'line'> {
  return {
    id: 'trackSpotRule',
    afterDatasetsDraw(chart) {
      const active = chart.getActiveElements()[0];
      if (!active) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.strokeStyle = color;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(active.element.x, chartArea.top);
      ctx.lineTo(active.element.x, chartArea.bottom);
      ctx.stroke();
      ctx.restore();
    },
  };
}

/** Shades the selected stretch (from, to) of the x axis; a line at `from` while `to` is still open. */
function selectionBand(color: string, selection: TrackChartProps['selection']): Plugin<'line'> {
  return {
    id: 'selectionBand',
    beforeDatasetsDraw(chart) {
      if (!selection) return;
      const { ctx, chartArea, scales } = chart;
      const xScale = scales.x;
      if (!xScale) return;
      const from = xScale.getPixelForValue(selection.from);
      const to = selection.to === null ? from + 2 : xScale.getPixelForValue(selection.to);
      ctx.save();
      ctx.globalAlpha = 0.18;
      ctx.fillStyle = color;
      ctx.fillRect(
        Math.min(from, to),
        chartArea.top,
        Math.max(2, Math.abs(to - from)),
        chartArea.bottom - chartArea.top,
      );
      ctx.restore();
    },
  };
}

export default function TrackChart({
  label,
  x,
  y,
  tone,
  xTitle,
  yTitle,
  formatX,
  formatY,
  unit,
  reverse = false,
  range = null,
  spot,
  onSpot,
  selection = null,
  onPick,
}: TrackChartProps) {
  useT(runTexts);
  const colors = useChartColors();
  const tones = useThemeValues(readToneColors);
  const chartRef = useRef<ChartJS<'line', { x: number; y: number }[]> | null>(null);
  const onSpotRef = useRef(onSpot);
  const onPickRef = useRef(onPick);
  useEffect(() => {
    onSpotRef.current = onSpot;
    onPickRef.current = onPick;
  }, [onSpot, onPick]);

  const data = useMemo<ChartData<'line', { x: number; y: number }[]>>(
    () => ({
      datasets: [
        {
          label,
          // Chart.js skips NaN: a gap where the channel has no value.
          data: x.map((value, k) => ({ x: value, y: y[k] ?? Number.NaN })),
          borderColor: tones[tone],
          backgroundColor: tones[tone],
          borderWidth: 2,
          pointRadius: 0,
          pointHoverRadius: 4,
          spanGaps: true,
          parsing: false,
          normalized: true,
        },
      ],
    }),
    [label, x, y, tones, tone],
  );

  const options = useMemo<ChartOptions<'line'>>(() => {
    const axis = { ticks: { color: colors.text }, grid: { color: colors.grid } };
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false, axis: 'x' },
      onHover: (_event, elements) => onSpotRef.current(spotOfHover(elements)),
      onClick: (_event, elements) => {
        const index = spotOfHover(elements);
        if (index !== null) onPickRef.current?.(index);
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? formatX(items[0].parsed.x ?? 0) : ''),
            label: (item) => t('run.charts.tooltip', { label, value: formatY(item.parsed.y ?? 0), unit }),
          },
        },
      },
      scales: {
        x: {
          ...axis,
          type: 'linear',
          min: x[0],
          max: x[x.length - 1],
          title: { display: true, text: xTitle, color: colors.text },
          ticks: { color: colors.text, maxTicksLimit: 8, callback: (value) => formatX(Number(value)) },
        },
        y: {
          ...axis,
          reverse,
          ...(range ?? {}),
          title: { display: true, text: yTitle, color: colors.text },
          ticks: { color: colors.text, maxTicksLimit: 6, callback: (value) => formatY(Number(value)) },
        },
      },
    };
  }, [colors, label, x, xTitle, yTitle, formatX, formatY, unit, reverse, range]);

  const plugins = useMemo(
    () => [spotRule(colors.text), selectionBand(tones[tone], selection)],
    [colors.text, tones, tone, selection],
  );

  // Show the spot another chart (or the map's owner) set, unless this chart already shows it.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const current = chart.getActiveElements()[0]?.index ?? null;
    const wanted = spot !== null && Number.isFinite(y[spot] ?? Number.NaN) ? spot : null;
    if (current === wanted) return;
    const active = wanted === null ? [] : [{ datasetIndex: 0, index: wanted }];
    chart.setActiveElements(active);
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 });
    chart.update('none');
  }, [spot, y]);

  return (
    <div className="track-chart" onMouseLeave={() => onSpotRef.current(null)}>
      <Line ref={chartRef} data={data} options={options} plugins={plugins} aria-label={label} role="img" />
    </div>
  );
}
