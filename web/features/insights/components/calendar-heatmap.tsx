/**
 * A year of days, coloured by distance: a grid of weeks (columns) and weekdays (rows). One cell
 * is in the tab order at a time; the arrow keys move a day (up, down) or a week (left, right),
 * Home and End go to the year's first and last day. Every day has a name, such as
 * "12 March: 10.20 km, 1 run". Loaded lazily (see LazyCalendarHeatmap).
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { Calendar } from '../../../../core/insights.js';
import { addDays, daysBetween, isoWeekday, isoWeekStart } from '../../../../core/time.js';
import { useDisplay } from '../../../lib/display';
import { dayName, plural } from './format';

/** Upper bounds (km) of the colour levels; beyond the last, the darkest. */
export const LEVELS_KM = [5, 10, 20];
const COLOURS = ['#c6e48b', '#7bc96f', '#239a3b', '#196127'];
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const CELL = { display: 'inline-block', width: 12, height: 12, margin: 1, borderRadius: 2, flex: '0 0 auto' } as const;
const EMPTY = 'var(--bs-secondary-bg)';

function colourOf(km: number): string {
  const level = LEVELS_KM.findIndex((limit) => km < limit);
  return COLOURS[level === -1 ? COLOURS.length - 1 : level]!;
}

export default function CalendarHeatmap({ calendar }: { calendar: Calendar }) {
  const display = useDisplay();
  const first = `${calendar.year}-01-01`;
  const last = `${calendar.year}-12-31`;
  const days = new Map(calendar.days.map(([date, km, runs]) => [date, { km, runs }]));
  const [focused, setFocused] = useState(calendar.days[0]?.[0] ?? first);
  const grid = useRef<HTMLDivElement>(null);
  const start = isoWeekStart(first);
  const weeks = Math.floor(daysBetween(start, last) / 7) + 1;

  const label = (date: string) => {
    const day = days.get(date);
    return day
      ? `${dayName(date)}: ${display.formatDistance(day.km)} ${display.labels.distance}, ${plural(day.runs, 'run')}`
      : `${dayName(date)}: no run`;
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
    <div style={{ overflowX: 'auto' }}>
      <div ref={grid} role="grid" aria-label={`Runs of ${calendar.year}, day by day`} onKeyDown={move}>
        {WEEKDAYS.map((weekday, row) => (
          <div role="row" key={weekday} style={{ display: 'flex', alignItems: 'center' }}>
            <span role="rowheader" className="small text-body-secondary" style={{ width: 32, flex: '0 0 auto' }}>
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
        Less{' '}
        {[0, ...LEVELS_KM].map((km, i) => (
          <span key={km} className="align-middle" style={{ ...CELL, background: COLOURS[i] }} />
        ))}{' '}
        More (under {LEVELS_KM.join(', ')} km and beyond)
      </p>
    </div>
  );
}
