import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads, fileResponse } from '../test/downloads';
import { ApiError } from './api-client';
import { downloadFile, fileNameOf } from './download';
import { tokenStorage } from './token-storage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('fileNameOf', () => {
  it.each([
    ['attachment; filename="running-times.csv"', 'running-times.csv'],
    ['attachment; filename=morning.fit', 'morning.fit'],
    [`attachment; filename="Laufen.fit"; filename*=UTF-8''L%C3%A4ufen.fit`, 'Läufen.fit'],
    [`attachment; filename*=UTF-8''%E0%A4%A; filename="fallback.gpx"`, 'fallback.gpx'],
    ['attachment', null],
    [null, null],
  ])('%s → %s', (header, name) => {
    expect(fileNameOf(header)).toBe(name);
  });
});

describe('downloadFile', () => {
  it('fetches with the token and saves the answer under the name the server gives', async () => {
    tokenStorage.set('secret-token');
    const saved = captureDownloads();
    const fetchMock = vi.fn(async () => fileResponse('<gpx/>', 'attachment; filename="run-7.gpx"'));
    vi.stubGlobal('fetch', fetchMock);
    await downloadFile('/api/v1/entry/7/track.gpx', 'track.gpx');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/entry/7/track.gpx', {
      headers: { Authorization: 'Bearer secret-token' },
    });
    expect(saved.map((file) => file.name)).toEqual(['run-7.gpx']);
    await expect(saved[0]!.text()).resolves.toBe('<gpx/>');
  });

  it('falls back to the given name without a Content-Disposition', async () => {
    const saved = captureDownloads();
    vi.stubGlobal('fetch', async () => fileResponse('a,b', null));
    await downloadFile('/api/v1/export?format=csv', 'running-times.csv');
    expect(saved.map((file) => file.name)).toEqual(['running-times.csv']);
  });

  it("rejects with the server's message and saves nothing when refused", async () => {
    const saved = captureDownloads();
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'Not found.' }), { status: 404 }));
    const failure = downloadFile('/api/v1/entry/7/original', 'original');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: 'Not found.' });
    expect(saved).toEqual([]);
  });

  it('says the server cannot be reached when the request fails', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(downloadFile('/api/v1/export?format=json', 'x.json')).rejects.toMatchObject({
      status: 0,
      message: 'The server cannot be reached. Check your connection and try again.',
    });
  });
});
