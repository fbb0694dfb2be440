import { useState, type MouseEvent } from 'react';
import runTexts from 'virtual:i18n/run';
import { t, useT } from '../../../i18n/runtime';
import { ApiError } from '../../../lib/api-client';
import { downloadTrackFile, trackFilePath, type TrackFile } from '../api/download-track';

/** Each file's texts, read when shown (in the language of the moment). */
const FILES: { file: TrackFile; download: () => string; preparing: () => string; missing: () => string }[] = [
  {
    file: 'original',
    download: () => t('run.files.downloadOriginal'),
    preparing: () => t('run.files.preparingOriginal'),
    missing: () => t('run.files.originalMissing'),
  },
  {
    file: 'gpx',
    download: () => t('run.files.downloadGpx'),
    preparing: () => t('run.files.preparingGpx'),
    missing: () => t('run.files.gpxMissing'),
  },
];

/**
 * Links to the run's files. Their `href` is the API path, so they read as what they are, but the
 * API wants the token: a click fetches the file with it and saves it instead of following the link.
 */
export function TrackDownloads({ entryId, hasPositions }: { entryId: number; hasPositions: boolean }) {
  useT(runTexts);
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
      else setError(failure instanceof Error ? failure.message : t('run.files.failed'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div className="d-flex flex-wrap gap-2">
        {FILES.filter(({ file }) => file !== 'gpx' || hasPositions).map(
          ({ file, download: label, preparing, missing }) => (
            <a
              key={file}
              href={trackFilePath(entryId, file)}
              className="btn btn-outline-primary"
              aria-busy={busy === file}
              onClick={(event) => void download(event, file, missing())}
            >
              {busy === file ? preparing() : label()}
            </a>
          ),
        )}
      </div>
      {error ? (
        <div className="alert alert-danger mt-3 mb-0" role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
}
