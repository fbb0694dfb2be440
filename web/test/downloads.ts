import { vi } from 'vitest';

export interface SavedFile {
  name: string;
  text: () => Promise<string>;
}

/**
 * Records the files the app hands to the browser to save (an object URL clicked as a download
 * link), since jsdom neither makes object URLs nor saves anything.
 */
export function captureDownloads(): SavedFile[] {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  // jsdom has no object URLs; each test file runs in its own window, so these stay in that file.
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${blobs.size + 1}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void blobs.delete(url);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob && this.download) saved.push({ name: this.download, text: () => blob.text() });
  });
  return saved;
}

/** A file the API answers with, as `fetch` would return it. */
export function fileResponse(body: string, disposition: string | null, status = 200): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
  if (disposition) headers['Content-Disposition'] = disposition;
  return new Response(body, { status, headers });
}
