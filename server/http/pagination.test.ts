import { describe, expect, it } from 'vitest';
import { linkBaseOf } from '../config.js';
import { pageUrlOf } from './pagination.js';

describe('page URLs', () => {
  const base = 'https://runs.example.org';

  it('are the link base, the route with its params, the parsed query in key order, the page replaced', () => {
    const query = { per_page: 5, page: 3, dateFrom: '2026-01-01', dateTo: undefined };
    const at = pageUrlOf(base, '/api/v1/entry', {}, query);
    expect(at(4)).toBe(`${base}/api/v1/entry?dateFrom=2026-01-01&page=4&per_page=5`);
    expect(at(1)).toBe(`${base}/api/v1/entry?dateFrom=2026-01-01&page=1&per_page=5`);
    expect(pageUrlOf(base, '/api/v1/entry', {}, {})(2)).toBe(`${base}/api/v1/entry?page=2`);
  });

  it('fill the params and encode every value as a form', () => {
    const shoe = pageUrlOf(base, '/api/v1/shoes/:id/entries', { id: 7 }, { page: 2 });
    expect(shoe(1)).toBe(`${base}/api/v1/shoes/7/entries?page=1`);
    const query = { query: "a b&c=é <script> o'neil", page: 2 };
    const url = pageUrlOf(base, '/api/v1/user', {}, query)(3);
    expect(url).toBe(`${base}/api/v1/user?page=3&query=a+b%26c%3D%C3%A9+%3Cscript%3E+o%27neil`);
    expect(new URL(url).searchParams.get('query')).toBe(query.query);
  });

  it('start from PUBLIC_URL, else the address the server listens on', () => {
    expect(linkBaseOf({ publicUrl: base, host: '0.0.0.0', port: 3000 })).toBe(base);
    expect(linkBaseOf({ publicUrl: null, host: '127.0.0.1', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(linkBaseOf({ publicUrl: null, host: '::1', port: 8080 })).toBe('http://[::1]:8080');
  });
});
