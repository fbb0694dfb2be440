/**
 * Where a run is shown and edited: the runner's own pages, or the admin's when the list is
 * everyone's runs (CONTRACT.md §14).
 */
export type RunPlace = 'own' | 'admin';

export const runPagePath = (id: number, place: RunPlace = 'own') =>
  place === 'admin' ? `/admin/entry/${id}` : `/entry/${id}`;

export const runEditPath = (id: number, place: RunPlace = 'own') =>
  place === 'admin' ? `/admin/entry/edit/${id}` : `/entry/edit/${id}`;
