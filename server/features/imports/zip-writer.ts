/**
 * A zip archive written as a stream with yazl (decision 027), its members one at a time: a
 * member's content is made only when the archive comes to it, once the member before it is
 * written whole, and flows through yazl (CRC, deflate on zlib's threads, ZIP64 past 4 GiB or
 * 65,535 members) as the socket takes it. Memory holds one member's chunks in flight and a
 * directory record per member (the zip's central directory, written last), never the archive.
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';

/** A member of an archive being written: its name, and its content, asked for when the archive comes to it. */
export interface LazyMember {
  name: string;
  content(): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
}

/**
 * Deflate's level: 6, zlib's default, packs this archive's text (JSON, GPX, TCX) to a sixth to a
 * tenth; lower levels saved little time on FIT files and lost a fifth of the packing on text.
 */
const LEVEL = 6;

/**
 * The archive of `members`, in their order, as a stream. The next member is asked of `members` once
 * the one before it is read to its end; a failure (of `members` or a member's content) destroys the
 * stream with that error, and a stream destroyed by its reader (a client gone) stops asking.
 */
export function zipStream(members: AsyncIterable<LazyMember>, mtime: Date): Readable {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const iterator = members[Symbol.asyncIterator]();
  let current: Readable | null = null;
  let stopped = false;
  const stop = (error?: unknown) => {
    if (stopped) return;
    stopped = true;
    current?.destroy();
    void iterator.return?.(undefined)?.catch(() => undefined);
    if (error !== undefined) output.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  const addNext = async (): Promise<void> => {
    const step = await iterator.next();
    if (stopped) return;
    if (step.done) {
      zip.end();
      return;
    }
    const member = step.value;
    zip.addReadStreamLazy(member.name, { mtime, compressionLevel: LEVEL }, (give) => {
      const content = Readable.from(member.content(), { objectMode: false });
      current = content;
      // yazl pipes the content, and a pipe passes no error on: it is told here.
      content.once('error', stop);
      content.once('end', () => void addNext().catch(stop));
      give(null, content);
    });
  };
  zip.once('error', stop);
  output.once('close', () => stop());
  void addNext().catch(stop);
  return output;
}
