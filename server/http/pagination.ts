/** The Laravel paginator shape of CONTRACT.md §2. */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PER_PAGE, type Paged } from '../../core/schemas.js';
import type { PageWindow } from '../context.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The base of the absolute links the server writes (config.ts linkBaseOf): never the request's Host. */
    linkBase: string;
  }
}

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
 * The request's page with another number (`https://runs.example.org/api/v1/entry?page=2`): the
 * link base (PUBLIC_URL), the route's declared path with its parsed params, and its parsed query
 * (what the schema kept, keys sorted), encoded as a form. Nothing of it comes from the Host or the
 * raw URL, so one answer serves every spelling of a request (http/answer-cache.ts).
 */
export function pageUrlOf(
  base: string,
  route: string,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): (page: number) => string {
  const path = route.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const keys = [...new Set([...Object.keys(query), 'page'])].filter((k) => k === 'page' || query[k] !== undefined);
  keys.sort();
  return (page) => {
    const form = new URLSearchParams();
    for (const key of keys) form.append(key, key === 'page' ? String(page) : String(query[key]));
    return `${base}${path}?${form.toString()}`;
  };
}

export function paged<T>(request: FastifyRequest, page: PageRequest, data: T[], total: number): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const from = data.length > 0 ? page.offset + 1 : null;
  const hasNext = page.page < lastPage;
  const hasPrev = page.page > 1;
  const pageUrl =
    hasNext || hasPrev
      ? pageUrlOf(
          request.server.linkBase,
          request.routeOptions.url ?? request.url,
          request.params as Record<string, unknown>,
          request.query as Record<string, unknown>,
        )
      : null;
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
