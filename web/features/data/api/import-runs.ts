import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImportEnvelopeSchema, type ImportMapping, type ImportResult } from '../../../../core/imports.js';
import { API_BASE, ApiError, UnexpectedResponseError, unreachableMessage } from '../../../lib/api-client';
import { invalidateRunData } from '../../../lib/query-keys';
import { parseErrorBody } from '../../../lib/response-guards';
import { tokenStorage } from '../../../lib/token-storage';

export interface ImportRequest {
  files: File[];
  dryRun: boolean;
  mapping?: ImportMapping | undefined;
  /** Sources of the rows to leave out (the preview's unticked rows). */
  exclude?: string[] | undefined;
}

/** Bytes of the upload sent so far (fetch cannot tell; XMLHttpRequest can). */
export type UploadProgress = (sent: number, total: number) => void;

/**
 * Sends files to `POST /import` as multipart/form-data through XMLHttpRequest, reporting the
 * bytes sent; resolves with the import's rows or rejects with an ApiError of the server's body.
 */
export function importRuns(request: ImportRequest, onProgress?: UploadProgress): Promise<ImportResult> {
  const url = `${API_BASE}/import`;
  const form = new FormData();
  if (request.dryRun) form.append('dry_run', '1');
  if (request.mapping) form.append('mapping', JSON.stringify(request.mapping));
  for (const source of request.exclude ?? []) form.append('exclude', source);
  for (const file of request.files) form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = tokenStorage.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onerror = () =>
      reject(new ApiError(0, url, { message: unreachableMessage() }));
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText) as unknown;
      } catch {
        json = null;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        let body = null;
        try {
          body = parseErrorBody(json);
        } catch {
          body = null;
        }
        reject(new ApiError(xhr.status, url, body));
        return;
      }
      try {
        resolve(ImportEnvelopeSchema.parse(json).import);
      } catch (cause) {
        reject(new UnexpectedResponseError(url, cause));
      }
    };
    xhr.send(form);
  });
}

/** Previews or stores an import; once runs are stored, everything computed from runs is read again. */
export function useImportRuns(onProgress?: UploadProgress) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ImportRequest) => importRuns(request, onProgress),
    onSuccess: async (_result, request) => {
      if (!request.dryRun) await invalidateRunData(queryClient);
    },
  });
}
