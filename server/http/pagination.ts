/** The Laravel paginator shape of CONTRACT.md §2. */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PER_PAGE, type Paged } from '../../core/schemas.js';

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export function pageRequest(query: { page?: number | undefined; per_page?: number | undefined }): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

export function paged<T>(request: FastifyRequest, page: PageRequest, data: T[], total: number): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const from = data.length > 0 ? page.offset + 1 : null;
  return {
    data,
    current_page: page.page,
    last_page: lastPage,
    per_page: page.perPage,
    total,
    from,
    to: from === null ? null : from + data.length - 1,
    next_page_url: page.page < lastPage ? pageUrl(request, page.page + 1) : null,
    prev_page_url: page.page > 1 ? pageUrl(request, Math.min(page.page - 1, lastPage)) : null,
  };
}
