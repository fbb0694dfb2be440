interface PaginationProps<T extends number> {
  /** The selectable values in display order: pages 1..N, or years newest first. */
  items: readonly T[];
  current: T;
  onSelect: (item: T) => void;
  /** Accessible name of the navigation landmark. */
  label: string;
  /** Text of an item for screen readers, e.g. (n) => `Page ${n}`. */
  describe?: (item: T) => string;
  /** How many neighbours of the current item stay visible before gaps appear. */
  siblings?: number;
  /** Page lists hide a lone page; a year list still shows its one year. */
  showSingle?: boolean;
}

type Slot<T> = { kind: 'item'; value: T } | { kind: 'gap'; key: string };

function visibleSlots<T extends number>(items: readonly T[], currentIndex: number, siblings: number): Slot<T>[] {
  const slots: Slot<T>[] = [];
  items.forEach((value, index) => {
    const near = Math.abs(index - currentIndex) <= siblings;
    if (index === 0 || index === items.length - 1 || near) {
      slots.push({ kind: 'item', value });
    } else if (slots.at(-1)?.kind !== 'gap') {
      slots.push({ kind: 'gap', key: `gap-${index}` });
    }
  });
  return slots;
}

/** Numbered pagination; renders nothing when there is only one item. */
export function Pagination<T extends number>({
  items,
  current,
  onSelect,
  label,
  describe = (item) => `Page ${item}`,
  siblings = 2,
  showSingle = false,
}: PaginationProps<T>) {
  if (items.length === 0 || (items.length === 1 && !showSingle)) return null;
  const currentIndex = Math.max(0, items.indexOf(current));
  const previous = items[currentIndex - 1];
  const next = items[currentIndex + 1];

  const arrow = (target: T | undefined, text: string, name: string) => (
    <li className={`page-item${target === undefined ? ' disabled' : ''}`}>
      <button
        type="button"
        className="page-link"
        aria-label={name}
        disabled={target === undefined}
        onClick={() => target !== undefined && onSelect(target)}
      >
        <span aria-hidden="true">{text}</span>
      </button>
    </li>
  );

  return (
    <nav aria-label={label}>
      <ul className="pagination flex-wrap">
        {arrow(previous, '«', 'Previous')}
        {visibleSlots(items, currentIndex, siblings).map((slot) =>
          slot.kind === 'gap' ? (
            <li key={slot.key} className="page-item disabled">
              <span className="page-link">…</span>
            </li>
          ) : (
            <li key={slot.value} className={`page-item${slot.value === current ? ' active' : ''}`}>
              <button
                type="button"
                className="page-link"
                aria-label={describe(slot.value)}
                aria-current={slot.value === current ? 'page' : undefined}
                onClick={() => onSelect(slot.value)}
              >
                {slot.value}
              </button>
            </li>
          ),
        )}
        {arrow(next, '»', 'Next')}
      </ul>
    </nav>
  );
}

/** Pages 1..lastPage. */
export function pageNumbers(lastPage: number): number[] {
  return Array.from({ length: Math.max(1, lastPage) }, (_, index) => index + 1);
}
