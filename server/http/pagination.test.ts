import { describe, expect, it } from 'vitest';
import { pageUrlOf } from './pagination.js';

describe('page URLs', () => {
  const origin = 'http://127.0.0.1:3000';
  const reference = (url: string, page: number) => {
    const full = new URL(url, origin);
    full.searchParams.set('page', String(page));
    return full.toString();
  };

  it.each([
    '/api/v1/entry',
    '/api/v1/entry?page=2',
    '/api/v1/entry?per_page=5&page=3&dateFrom=2026-01-01',
    '/api/v1/entry?page=1&page=9&x=',
    '/api/v1/user?query=ada%20lovelace&page=2',
    '/api/v1/user?query=a+b%26c%3D%C3%A9',
    "/api/v1/user?query=%3Cscript%3E&q2=o'neil",
    '/api/v1/entry?',
  ])('%s keeps its path and other parameters, with the page replaced', (url) => {
    const at = pageUrlOf(origin, url);
    expect(at(4)).toBe(reference(url, 4));
    expect(at(1)).toBe(reference(url, 1));
  });
});
