/**
 * Files the API serves behind the bearer token (the export, a run's original file, its GPX): a plain
 * link cannot send the token, so the app fetches the file and hands it to the browser to save.
 */
import { ApiError, unreachableMessage } from './api-client';
import { parseErrorBody } from './response-guards';
import { tokenStorage } from './token-storage';

/**
 * The file name of a `Content-Disposition` header: the UTF-8 `filename*` when present (names of
 * uploaded files may hold any character), else `filename`, quoted or not; null without either.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
  return plain?.[1] || plain?.[2] || null;
}

/** The server's `{message}` of a refused download, when the body is one. */
async function errorBodyOf(response: Response) {
  try {
    return parseErrorBody(JSON.parse(await response.text()));
  } catch {
    return null;
  }
}

/**
 * Fetches `url` (an API path, e.g. `/api/v1/export?format=csv`) with the token and saves the answer
 * under the name the server gives, else `fallbackName`. Rejects with an `ApiError` like every request.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const token = tokenStorage.get();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, url, { message: unreachableMessage() });
  }
  if (!response.ok) throw new ApiError(response.status, url, await errorBodyOf(response));
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
