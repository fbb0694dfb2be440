/**
 * A JSON document read a chunk at a time, for exports too large to hold parsed at once: the
 * top-level object's members are given one by one, and the elements of the arrays named in
 * `streamed` one element at a time (each element's text parsed on its own). Memory holds one
 * member or one element, never the document. Throws Unreadable on text that is not JSON.
 */
import { StringDecoder } from 'node:string_decoder';
import { Unreadable } from './types.js';

export type JsonPiece =
  | { key: string; value: unknown }
  /** A streamed array opens: its elements follow. */
  | { key: string; array: true }
  | { key: string; element: unknown };

const damaged = () => new Unreadable('The JSON file is damaged or truncated.');

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The largest member (other than a streamed array) or element kept to be parsed. */
const MAX_PIECE = 16 * 1024 * 1024;

export async function* jsonPieces(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  streamed: ReadonlySet<string>,
): AsyncGenerator<JsonPiece> {
  const decoder = new StringDecoder('utf8');
  // Where the scanner is: before the root, in the root between members, in a member's value,
  // or in a streamed array between or inside elements; done after the root closes.
  type Where = 'root' | 'key' | 'colon' | 'value' | 'array' | 'element' | 'after' | 'done';
  let where: Where = 'root';
  let key = '';
  let piece = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let capturing = false;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw damaged();
    }
  };
  for await (const chunk of chunks) {
    const text = decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // Where the piece being read starts in this text (a piece begun in an earlier chunk: here).
    let start: number = capturing ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (where === 'value' || where === 'element' || (where === 'key' && start >= 0)) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') {
            inString = false;
            if (where === 'key' && depth === 0) {
              key = parse(piece + text.slice(start, i + 1)) as string;
              piece = '';
              start = -1;
              where = 'colon';
            }
          }
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth += 1;
        else if (c === '}' || c === ']' || c === ',') {
          if (depth > 0 && c !== ',') depth -= 1;
          else if (depth === 0) {
            // The end of a value or element: the comma or bracket after it is not part of it.
            const value = parse(piece + text.slice(start, i));
            piece = '';
            start = -1;
            if (where === 'value') {
              yield { key, value };
              where = c === ',' ? 'key' : c === '}' ? 'done' : 'after';
              if (c === ']') throw damaged();
            } else {
              yield { key, element: value };
              if (c === ',') where = 'array';
              else if (c === ']') where = 'after';
              else throw damaged();
            }
            continue;
          }
        }
        continue;
      }
      if (WHITESPACE.has(c)) continue;
      switch (where) {
        case 'root':
          if (c !== '{') throw damaged();
          where = 'key';
          break;
        case 'key':
          if (c === '}') where = 'done';
          else if (c === '"') {
            start = i;
            inString = true;
          } else throw damaged();
          break;
        case 'colon':
          if (c !== ':') throw damaged();
          if (streamed.has(key)) {
            where = 'array';
            // The array's opening bracket comes next.
            depth = -1;
          } else {
            where = 'value';
            start = i + 1;
            depth = 0;
          }
          break;
        case 'array':
          if (depth === -1) {
            if (c !== '[') {
              // Not an array: read as a plain member.
              where = 'value';
              start = i;
              depth = 0;
              i -= 1;
            } else {
              depth = 0;
              yield { key, array: true };
            }
          } else if (c === ']') where = 'after';
          else {
            where = 'element';
            start = i;
            depth = 0;
            i -= 1;
          }
          break;
        case 'after':
          if (c === ',') where = 'key';
          else if (c === '}') where = 'done';
          else throw damaged();
          break;
        case 'done':
          throw damaged();
        default:
          break;
      }
    }
    capturing = start >= 0;
    if (capturing) {
      piece += text.slice(start);
      if (piece.length > MAX_PIECE) throw new Unreadable('A value of the JSON file is too large to read.');
    }
  }
  if (where !== 'done') throw damaged();
}
