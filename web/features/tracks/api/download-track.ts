import { API_BASE } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** The two files of a tracked run (CONTRACT.md §16): the file as uploaded, and its track as GPX. */
export type TrackFile = 'original' | 'gpx';

/** The API path of a run's file: also the `href` of its download link. */
export function trackFilePath(entryId: number, file: TrackFile): string {
  return `${API_BASE}/entry/${entryId}/${file === 'original' ? 'original' : 'track.gpx'}`;
}

/** Fetches a run's file with the token and saves it, under the server's name for it. */
export function downloadTrackFile(entryId: number, file: TrackFile): Promise<void> {
  return downloadFile(trackFilePath(entryId, file), file === 'original' ? `run-${entryId}` : `run-${entryId}.gpx`);
}
