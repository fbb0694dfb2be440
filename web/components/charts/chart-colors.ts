/**
 * The charts' colours come from CSS variables (styles.css), read again whenever the colour theme
 * (`data-bs-theme` on <html>) changes, so every chart reads well in light and dark mode.
 */
import { requestLanguage } from '../../i18n/runtime';
import { cssVariable, useThemeValues } from '../../lib/theme-values';

export interface ChartColors {
  speed: string;
  distance: string;
  text: string;
  grid: string;
}

/** The chart's colours in the theme shown now. */
export function readChartColors(root: Element = document.documentElement): ChartColors {
  return {
    speed: cssVariable('--rt-chart-speed', '#d63a3a', root),
    distance: cssVariable('--rt-chart-distance', '#1f7fbf', root),
    text: cssVariable('--bs-body-color', '#212529', root),
    grid: cssVariable('--bs-border-color-translucent', 'rgba(0, 0, 0, 0.175)', root),
  };
}

const readDocumentChartColors = () => readChartColors();

/** The colours, following changes of the theme. */
export function useChartColors(): ChartColors {
  return useThemeValues(readDocumentChartColors);
}

/**
 * What every chart of the app shares: it fills its box, draws at once, shows all the series of
 * the point under the pointer, writes its text and grid in the theme's colours and the numbers of
 * its axes and tooltips in the app's language (its decimal separator).
 */
export function baseChartOptions(colors: ChartColors) {
  return {
    locale: requestLanguage(),
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    color: colors.text,
    plugins: { legend: { labels: { color: colors.text } } },
  } as const;
}

/** An axis in the theme's colours. */
export const themedAxis = (colors: ChartColors) => ({ ticks: { color: colors.text }, grid: { color: colors.grid } });
