import { describe, expect, it } from 'vitest';
import { pageUrlOf } from './pagination.js';

describe('page URLs', () => {
  it('are relative: the route with its params, the parsed query in key order, the page replaced', () => {
    const at = pageUrlOf('/api/v1/entry', {}, { per_page: 5, page: 3, dateFrom: '2026-01-01', dateTo: undefined });
    expect(at(4)).toBe('/api/v1/entry?dateFrom=2026-01-01&page=4&per_page=5');
    expect(at(1)).toBe('/api/v1/entry?dateFrom=2026-01-01&page=1&per_page=5');
    expect(pageUrlOf('/api/v1/entry', {}, {})(2)).toBe('/api/v1/entry?page=2');
  });

  it('fill the params and encode every value as a form', () => {
    expect(pageUrlOf('/api/v1/shoes/:id/entries', { id: 7 }, { page: 2 })(1)).toBe('/api/v1/shoes/7/entries?page=1');
    const query = { query: "a b&c=é <script> o'neil", page: 2 };
    const url = pageUrlOf('/api/v1/user', {}, query)(3);
    expect(url).toBe('/api/v1/user?page=3&query=a+b%26c%3D%C3%A9+%3Cscript%3E+o%27neil');
    expect(new URL(url, 'http://x').searchParams.get('query')).toBe(query.query);
  });
});
