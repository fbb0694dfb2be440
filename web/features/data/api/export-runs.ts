import type { ExportFormat } from '../../../../core/imports.js';
import { API_BASE } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** Downloads `GET /export` (it needs the bearer token, so a plain link cannot fetch it) and saves it as a file. */
export function exportRuns(format: ExportFormat): Promise<void> {
  return downloadFile(`${API_BASE}/export?format=${format}`, `running-times.${format}`);
}
