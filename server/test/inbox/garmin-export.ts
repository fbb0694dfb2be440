/**
 * Archives built as Garmin Connect's data export is (CONTRACT.md §20, "Nested zips"): the FIT
 * files a runner's watches uploaded, in zips under `DI_CONNECT/DI-Connect-Uploaded-Files/`, and
 * folders of JSON beside them. Written with yazl, the FIT files with Garmin's own encoder.
 */
import yazl from 'yazl';
import { fitActivity } from '../imports/fit-fixtures.js';

/** A zip of `files`, written by yazl. */
export function yazlZip(files: Record<string, Uint8Array | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(Buffer.from(content), name, { mtime: new Date('2025-01-01T00:00:00Z') });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export interface GarminRun {
  start: Date;
  metres: number;
  seconds: number;
  sport?: string;
}

export const UPLOADED = 'DI_CONNECT/DI-Connect-Uploaded-Files';

/** A Garmin Connect data export: the runs' FIT files split over two part zips, JSON folders beside. */
export async function garminExport(runs: GarminRun[]): Promise<Buffer> {
  const half = Math.ceil(runs.length / 2);
  const part = (list: GarminRun[], from: number) =>
    yazlZip(
      Object.fromEntries(
        list.map((run, i) => [
          `user@example.com_${1000 + from + i}.fit`,
          fitActivity({
            start: run.start,
            metres: run.metres,
            timerSeconds: run.seconds,
            sport: run.sport ?? 'running',
          }),
        ]),
      ),
    );
  return yazlZip({
    [`${UPLOADED}/UploadedFiles_0-_Part1.zip`]: await part(runs.slice(0, half), 0),
    [`${UPLOADED}/UploadedFiles_0-_Part2.zip`]: await part(runs.slice(half), half),
    'DI_CONNECT/DI-Connect-User/user_profile.json': JSON.stringify({ userName: 'runner' }),
    'DI_CONNECT/DI-Connect-Fitness/user@example.com_0_summarizedActivities.json': JSON.stringify([
      { summarizedActivitiesExport: [{ activityId: 1, activityType: 'running' }] },
    ]),
    'DI_CONNECT/DI-Connect-Wellness/2025-01-01_2025-04-11_123_sleepData.json': '[]',
  });
}
