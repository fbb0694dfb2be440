/**
 * A year of days, coloured by distance: a grid of weeks (columns) and weekdays (rows). One cell
 * is in the tab order at a time; the arrow keys move a day (up, down) or a week (left, right),
 * Home and End go to the year's first and last day. Every day has a name, such as
 * "03/12/2026: 10.20 km, 1 run". This year's grid opens scrolled to today, where a narrow
 * screen would otherwise show January. Loaded lazily (see LazyCalendarHeatmap).
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import insights from 'virtual:i18n/insights';
import type { Calendar } from '../../../../core/insights.js';
import { addDays, daysBetween, isoWeekday, isoWeekStart } from '../../../../core/time.js';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';

/** Upper bounds (km) of the colour levels; beyond the last, the darkest. */
export const LEVELS_KM = [5, 10, 20];
const COLOURS = ['#c6e48b', '#7bc96f', '#239a3b', '#196127'];
/** The weekdays' short names, Monday first (the rows). */
const weekdays = (t: ReturnType<typeof useT>) => [
  t('insights.weekdays.mon'),
  t('insights.weekdays.tue'),
  t('insights.weekdays.wed'),
  t('insights.weekdays.thu'),
  t('insights.weekdays.fri'),
  t('insights.weekdays.sat'),
  t('insights.weekdays.sun'),
];
const CELL = { display: 'inline-block', width: 12, height: 12, margin: 1, borderRadius: 2, flex: '0 0 auto' } as const;
const EMPTY = 'var(--bs-secondary-bg)';
/** A cell's width with its margins, and the weekday names' column (px). */
const COLUMN_PX = CELL.width + 2 * CELL.margin;
const NAMES_PX = 32;

/**
 * How far the grid of `year` scrolls so that today's week ends its visible part (with two weeks
 * after it when there are): 0 for another year, or when the whole grid fits.
 */
export function scrollToToday(year: number, today: string, viewWidth: number): number {
  if (Number(today.slice(0, 4)) !== year) return 0;
  const column = Math.floor(daysBetween(isoWeekStart(`${year}-01-01`), today) / 7);
  return Math.max(0, NAMES_PX + (column + 3) * COLUMN_PX - viewWidth);
}

function colourOf(km: number): string {
  const level = LEVELS_KM.findIndex((limit) => km < limit);
  return COLOURS[level === -1 ? COLOURS.length - 1 : level]!;
}

export default function CalendarHeatmap({ calendar }: { calendar: Calendar }) {
  const t = useT(insights);
  const display = useDisplay();
  const first = `${calendar.year}-01-01`;
  const last = `${calendar.year}-12-31`;
  const days = new Map(calendar.days.map(([date, km, runs]) => [date, { km, runs }]));
  const [focused, setFocused] = useState(calendar.days[0]?.[0] ?? first);
  const grid = useRef<HTMLDivElement>(null);
  const view = useRef<HTMLDivElement>(null);
  const today = display.today();
  useLayoutEffect(() => {
    if (view.current) view.current.scrollLeft = scrollToToday(calendar.year, today, view.current.clientWidth);
  }, [calendar.year, today]);
  const start = isoWeekStart(first);
  const weeks = Math.floor(daysBetween(start, last) / 7) + 1;

  const label = (date: string) => {
    const day = days.get(date);
    return day
      ? t('insights.heatmap.day', {
          date: display.formatDate(date),
          distance: display.formatDistance(day.km),
          unit: display.labels.distance,
          count: day.runs,
        })
      : t('insights.heatmap.noRun', { date: display.formatDate(date) });
  };

  const move = (event: KeyboardEvent) => {
    const steps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };
    let next: string | null = null;
    if (event.key in steps) next = addDays(focused, steps[event.key]!);
    else if (event.key === 'Home') next = first;
    else if (event.key === 'End') next = last;
    if (next === null) return;
    event.preventDefault();
    if (next < first || next > last) return;
    setFocused(next);
    grid.current?.querySelector<HTMLElement>(`[data-date="${next}"]`)?.focus();
  };

  return (
    <div ref={view} style={{ overflowX: 'auto' }}>
      <div ref={grid} role="grid" aria-label={t('insights.heatmap.label', { year: calendar.year })} onKeyDown={move}>
        {weekdays(t).map((weekday, row) => (
          <div role="row" key={row} style={{ display: 'flex', alignItems: 'center' }}>
            <span role="rowheader" className="small text-body-secondary" style={{ width: NAMES_PX, flex: '0 0 auto' }}>
              {weekday}
            </span>
            {Array.from({ length: weeks }, (_, column) => {
              const date = addDays(start, column * 7 + row);
              if (date < first || date > last || isoWeekday(date) !== row + 1) {
                return <span role="gridcell" key={column} style={CELL} />;
              }
              const day = days.get(date);
              return (
                <span
                  role="gridcell"
                  key={column}
                  data-date={date}
                  tabIndex={date === focused ? 0 : -1}
                  aria-label={label(date)}
                  title={label(date)}
                  onFocus={() => setFocused(date)}
                  style={{ ...CELL, background: day ? colourOf(day.km) : EMPTY }}
                />
              );
            })}
          </div>
        ))}
      </div>
      <p className="small text-body-secondary mt-2 mb-0" aria-hidden="true">
        {t('insights.heatmap.less')}{' '}
        {[0, ...LEVELS_KM].map((km, i) => (
          <span key={km} className="align-middle" style={{ ...CELL, background: COLOURS[i] }} />
        ))}{' '}
        {t('insights.heatmap.more', { levels: LEVELS_KM.join(', ') })}
      </p>
    </div>
  );
}
