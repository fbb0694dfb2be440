import common from 'virtual:i18n/common';
import { useT } from '../i18n/runtime';

interface PaginationProps {
  /** The number of positions (pages, or years), 1..last. */
  last: number;
  /** The current position, 1..last. */
  current: number;
  onSelect: (position: number) => void;
  /** Accessible name of the navigation landmark. */
  label: string;
  /** What a position shows (default: the position itself; a list of years shows its year). */
  valueAt?: (position: number) => number;
  /** Text of a position for screen readers, from its value (default: "Page 2", from the catalog). */
  describe?: (value: number) => string;
  /** How many neighbours of the current position stay visible before gaps appear. */
  siblings?: number;
  /** Page lists hide a lone page; a year list still shows its one year. */
  showSingle?: boolean;
}

type Slot = { kind: 'item'; position: number } | { kind: 'gap'; key: string };

/**
 * The first and last positions, the current one and its neighbours, and a gap for each run left
 * out: computed from (current, last) alone, so a list of 666,667 pages costs what a list of 20 does.
 */
export function visibleSlots(current: number, last: number, siblings: number): Slot[] {
  const from = Math.max(1, current - siblings);
  const to = Math.min(last, current + siblings);
  const slots: Slot[] = [];
  if (from > 1) slots.push({ kind: 'item', position: 1 });
  if (from > 2) slots.push({ kind: 'gap', key: 'gap-before' });
  for (let position = from; position <= to; position++) slots.push({ kind: 'item', position });
  if (to < last - 1) slots.push({ kind: 'gap', key: 'gap-after' });
  if (to < last) slots.push({ kind: 'item', position: last });
  return slots;
}

/** Numbered pagination; renders nothing when there is only one position (unless showSingle). */
export function Pagination({
  last,
  current,
  onSelect,
  label,
  valueAt = (position) => position,
  describe,
  siblings = 2,
  showSingle = false,
}: PaginationProps) {
  const t = useT(common);
  if (last < 1 || (last === 1 && !showSingle)) return null;
  const at = Math.min(Math.max(1, current), last);

  const arrow = (target: number | null, text: string, name: string) => (
    <li className={`page-item${target === null ? ' disabled' : ''}`}>
      <button
        type="button"
        className="page-link"
        aria-label={name}
        disabled={target === null}
        onClick={() => target !== null && onSelect(target)}
      >
        <span aria-hidden="true">{text}</span>
      </button>
    </li>
  );

  return (
    <nav aria-label={label}>
      <ul className="pagination flex-wrap">
        {arrow(at > 1 ? at - 1 : null, '«', t('common.pagination.previous'))}
        {visibleSlots(at, last, siblings).map((slot) =>
          slot.kind === 'gap' ? (
            <li key={slot.key} className="page-item disabled">
              <span className="page-link">…</span>
            </li>
          ) : (
            <li key={slot.position} className={`page-item${slot.position === at ? ' active' : ''}`}>
              <button
                type="button"
                className="page-link"
                aria-label={
                  describe
                    ? describe(valueAt(slot.position))
                    : t('common.pagination.page', { page: valueAt(slot.position) })
                }
                aria-current={slot.position === at ? 'page' : undefined}
                onClick={() => onSelect(slot.position)}
              >
                {valueAt(slot.position)}
              </button>
            </li>
          ),
        )}
        {arrow(at < last ? at + 1 : null, '»', t('common.pagination.next'))}
      </ul>
    </nav>
  );
}
