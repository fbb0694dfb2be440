import { useState, type MouseEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { downloadTrackFile, trackFilePath, type TrackFile } from '../api/download-track';

const FILES: { file: TrackFile; text: string; missing: string }[] = [
  {
    file: 'original',
    text: 'original file',
    missing: 'The original file of this run is not kept (a file over 32 MiB keeps only its track).',
  },
  { file: 'gpx', text: 'GPX', missing: 'This run has no positions to write as GPX.' },
];

/**
 * Links to the run's files. Their `href` is the API path, so they read as what they are, but the
 * API wants the token: a click fetches the file with it and saves it instead of following the link.
 */
export function TrackDownloads({ entryId, hasPositions }: { entryId: number; hasPositions: boolean }) {
  const [busy, setBusy] = useState<TrackFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (event: MouseEvent<HTMLAnchorElement>, file: TrackFile, missing: string) => {
    event.preventDefault();
    if (busy) return;
    setBusy(file);
    setError(null);
    try {
      await downloadTrackFile(entryId, file);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setError(missing);
      else setError(failure instanceof Error ? failure.message : 'The download failed.');
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div className="d-flex flex-wrap gap-2">
        {FILES.filter(({ file }) => file !== 'gpx' || hasPositions).map(({ file, text, missing }) => (
          <a
            key={file}
            href={trackFilePath(entryId, file)}
            className="btn btn-outline-primary"
            aria-busy={busy === file}
            onClick={(event) => void download(event, file, missing)}
          >
            {busy === file ? `Preparing ${text}…` : `Download ${text}`}
          </a>
        ))}
      </div>
      {error ? (
        <div className="alert alert-danger mt-3 mb-0" role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
}
