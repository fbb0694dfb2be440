import type { ExportFormat } from '../../../../core/imports.js';
import { API_BASE, ApiError } from '../../../lib/api-client';
import { tokenStorage } from '../../../lib/token-storage';

/** Downloads `GET /export` (it needs the bearer token, so a plain link cannot fetch it) and saves it as a file. */
export async function exportRuns(format: ExportFormat): Promise<void> {
  const url = `${API_BASE}/export?format=${format}`;
  const token = tokenStorage.get();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, url, { message: 'The server cannot be reached. Check your connection and try again.' });
  }
  if (!response.ok) throw new ApiError(response.status, url, null);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `running-times.${format}`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
