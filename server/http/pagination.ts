/** The Laravel paginator shape of CONTRACT.md §2. */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PER_PAGE, type Paged } from '../../core/schemas.js';
import type { PageWindow } from '../context.js';

export interface PageRequest extends PageWindow {
  page: number;
  perPage: number;
}

export function pageRequest(query: { page?: number | undefined; per_page?: number | undefined }): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/**
 * The request's own URL with another page number, its other parameters kept and encoded as
 * a form (as Laravel's paginator writes them). Built from the path and query as received:
 * the router already accepted the path, so only the query needs parsing.
 */
export function pageUrlOf(origin: string, requestUrl: string): (page: number) => string {
  const mark = requestUrl.indexOf('?');
  const path = mark === -1 ? requestUrl : requestUrl.slice(0, mark);
  const params = new URLSearchParams(mark === -1 ? '' : requestUrl.slice(mark + 1));
  return (page) => {
    params.set('page', String(page));
    return `${origin}${path}?${params.toString()}`;
  };
}

export function paged<T>(request: FastifyRequest, page: PageRequest, data: T[], total: number): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const from = data.length > 0 ? page.offset + 1 : null;
  const hasNext = page.page < lastPage;
  const hasPrev = page.page > 1;
  const pageUrl = hasNext || hasPrev ? pageUrlOf(`${request.protocol}://${request.host}`, request.url) : null;
  return {
    data,
    current_page: page.page,
    last_page: lastPage,
    per_page: page.perPage,
    total,
    from,
    to: from === null ? null : from + data.length - 1,
    next_page_url: hasNext ? pageUrl!(page.page + 1) : null,
    prev_page_url: hasPrev ? pageUrl!(Math.min(page.page - 1, lastPage)) : null,
  };
}
