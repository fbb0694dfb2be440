/**
 * XML of GPX and TCX files, read by a strict streaming parser (saxes, decision 040) into a small
 * tree: an element is its text when it has neither attributes nor children, else an object of
 * its attributes (`@name`), its children by local name (the namespace prefix dropped; repeated
 * ones, and those named in `arrays`, as arrays) and its text (`#text`). No DTD is read: a file
 * that declares a DOCTYPE (the door to "billion laughs" and external entities) is refused, and
 * only XML's five entities and character references are decoded.
 */
import { SaxesParser } from 'saxes';
import { UNBOUNDED, Unreadable, type TimeBudget } from './types.js';

const decoder = new TextDecoder('utf-8');

type Element = Record<string, unknown>;

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

class Refused extends Error {}

/** The XML's tree; every tag passes `budget` as it is read (a slow file is given up part-way). */
export function parseXml(bytes: Uint8Array, arrays: ReadonlySet<string>, budget: TimeBudget = UNBOUNDED): Element {
  const root: Element = {};
  // The open elements, innermost last, each with its name and the text read inside it so far.
  const open: { element: Element; name: string; text: string }[] = [{ element: root, name: '', text: '' }];
  const parser = new SaxesParser();
  parser.on('doctype', () => {
    throw new Refused();
  });
  parser.on('opentag', (tag) => {
    budget.check();
    const element: Element = {};
    for (const name in tag.attributes) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) element['@' + localName(name)] = tag.attributes[name];
    }
    open.push({ element, name: localName(tag.name), text: '' });
  });
  const addText = (text: string) => {
    open[open.length - 1]!.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const { element, name, text } = open.pop()!;
    const parent = open[open.length - 1]!.element;
    let value: unknown = element;
    if (Object.keys(element).length === 0) value = text.trim();
    else if (text.trim() !== '') element['#text'] = text.trim();
    const before = parent[name];
    if (before === undefined) parent[name] = arrays.has(name) ? [value] : value;
    else if (Array.isArray(before)) before.push(value);
    else parent[name] = [before, value];
  });
  try {
    parser.write(decoder.decode(bytes)).close();
  } catch (error) {
    if (error instanceof Refused) {
      throw new Unreadable('XML files with a DOCTYPE or entity declarations are not accepted.');
    }
    if (error instanceof Unreadable) throw error;
    throw new Unreadable('The XML is damaged or truncated.');
  }
  if (Object.keys(root).length === 0) throw new Unreadable('The XML is damaged or truncated.');
  return root;
}

/** The text an element or attribute holds, trimmed; undefined when absent or blank. */
export function xmlText(value: unknown): string | undefined {
  const raw = typeof value === 'object' && value !== null ? (value as Element)['#text'] : value;
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  return text === '' ? undefined : text;
}

/** A number an element or attribute holds; NaN when absent or blank (where Number('') would be 0). */
export function xmlNumber(value: unknown): number {
  const text = xmlText(value);
  return text === undefined ? NaN : Number(text);
}

/** An instant an element holds (ISO 8601), in epoch milliseconds; NaN when absent or unreadable. */
export function xmlTime(value: unknown): number {
  const text = xmlText(value);
  return text === undefined ? NaN : Date.parse(text);
}

export const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export const child = (node: unknown, name: string): unknown =>
  node && typeof node === 'object' ? (node as Element)[name] : undefined;
