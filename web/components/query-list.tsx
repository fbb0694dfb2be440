import type { ReactNode } from 'react';
import common from 'virtual:i18n/common';
import { useT } from '../i18n/runtime';

/**
 * A list the server sends, inside a flush panel: a sentence while it loads, when it cannot be
 * loaded and when it is empty; otherwise its items as a flush list group.
 */
export function QueryList<T>({
  items,
  isError,
  error,
  empty,
  children,
}: {
  items: T[] | undefined;
  isError: boolean;
  /** The sentence shown when the list cannot be loaded, from the screen's catalog. */
  error: string;
  /** The sentence shown for an empty list. */
  empty: string;
  children: (item: T) => ReactNode;
}) {
  const t = useT(common);
  if (isError) {
    return <p className="card-body text-danger mb-0">{error}</p>;
  }
  if (!items) return <p className="card-body text-body-secondary mb-0">{t('common.loading')}</p>;
  if (items.length === 0) return <p className="card-body mb-0">{empty}</p>;
  return <ul className="list-group list-group-flush">{items.map(children)}</ul>;
}
