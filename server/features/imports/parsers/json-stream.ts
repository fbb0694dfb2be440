/**
 * A JSON document read a chunk at a time, for exports too large to hold parsed at once: the
 * top-level object's members are given one by one, and the elements of the arrays named in
 * `streamed` one element at a time. The tokenizer is @streamparser/json's (decision 022); what
 * is kept here is the shape of an export and a bound: memory holds one member or one element,
 * never the document, and a member or element of more than MAX_PIECE bytes is refused before
 * it is read in full. Throws Unreadable on text that is not JSON, or not one JSON object.
 */
import { JSONParser } from '@streamparser/json';
import { Unreadable } from './types.js';

export type JsonPiece =
  | { key: string; value: unknown }
  /** A streamed array opens: its elements follow. */
  | { key: string; array: true }
  | { key: string; element: unknown };

const damaged = () => new Unreadable('The JSON file is damaged or truncated.');

/** The largest member (other than a streamed array) or element read. */
export const MAX_PIECE = 16 * 1024 * 1024;

/** Bytes handed to the tokenizer at once: the bound on a piece is checked this often. */
const STEP = 64 * 1024;

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Whether the root starts in these bytes (false: only whitespace so far); Unreadable when it is not an object. */
function opensAnObject(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (WHITESPACE.has(byte)) continue;
    if (byte !== 0x7b) throw damaged();
    return true;
  }
  return false;
}

export async function* jsonPieces(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  streamed: ReadonlySet<string>,
): AsyncGenerator<JsonPiece> {
  const paths = ['$.*', ...[...streamed].map((key) => `$.${key}.*`)];
  // keepStack off: an element is dropped from its array once given, so the array never grows.
  const parser = new JSONParser({ paths, keepStack: false });
  const ready: JsonPiece[] = [];
  const opened = new Set<string>();
  let rootSeen = false;
  /** Bytes since the last piece was given: the size of the piece being read. */
  let pending = 0;
  parser.onValue = ({ value, key, stack }) => {
    pending = 0;
    if (stack.length === 1) {
      const name = String(key);
      if (streamed.has(name) && Array.isArray(value)) {
        // Its elements were given as they came: the array itself is empty here.
        if (!opened.has(name)) ready.push({ key: name, array: true });
        return;
      }
      ready.push({ key: name, value });
      return;
    }
    if (stack.length === 2) {
      const name = String(stack[1]!.key);
      if (!opened.has(name)) {
        opened.add(name);
        ready.push({ key: name, array: true });
      }
      ready.push({ key: name, element: value });
    }
  };
  const write = (bytes: Uint8Array) => {
    try {
      parser.write(bytes);
    } catch (error) {
      if (error instanceof Unreadable) throw error;
      throw damaged();
    }
  };
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += STEP) {
      const part = chunk.subarray(at, at + STEP);
      if (!rootSeen) rootSeen = opensAnObject(part);
      pending += part.length;
      if (pending > MAX_PIECE) throw new Unreadable('A value of the JSON file is too large to read.');
      write(part);
      while (ready.length > 0) yield ready.shift()!;
    }
  }
  if (!parser.isEnded) {
    try {
      parser.end();
    } catch {
      throw damaged();
    }
  }
  while (ready.length > 0) yield ready.shift()!;
  if (!rootSeen) throw damaged();
}
