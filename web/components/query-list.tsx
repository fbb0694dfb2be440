import type { ReactNode } from 'react';

/**
 * A list the server sends, inside a flush panel: a sentence while it loads, when it cannot be
 * loaded and when it is empty; otherwise its items as a flush list group.
 */
export function QueryList<T>({
  items,
  isError,
  noun,
  empty,
  children,
}: {
  items: T[] | undefined;
  isError: boolean;
  /** What the list holds, for the error sentence: "Your shoes could not be loaded." */
  noun: string;
  /** The sentence shown for an empty list. */
  empty: string;
  children: (item: T) => ReactNode;
}) {
  if (isError) return <p className="card-body text-danger mb-0">Your {noun} could not be loaded.</p>;
  if (!items) return <p className="card-body text-body-secondary mb-0">Loading…</p>;
  if (items.length === 0) return <p className="card-body mb-0">{empty}</p>;
  return <ul className="list-group list-group-flush">{items.map(children)}</ul>;
}
