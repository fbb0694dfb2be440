/**
 * XML of GPX and TCX files, parsed without DTDs and without entity expansion: a file that
 * declares a DOCTYPE (the door to "billion laughs" and external entities) is refused.
 */
import { XMLParser } from 'fast-xml-parser';
import { UNBOUNDED, Unreadable, type TimeBudget } from './types.js';

const decoder = new TextDecoder('utf-8');

/** The XML's tree; every tag passes `budget` as it is read (a slow file is given up part-way). */
export function parseXml(
  bytes: Uint8Array,
  arrays: ReadonlySet<string>,
  budget: TimeBudget = UNBOUNDED,
): Record<string, unknown> {
  const textOf = decoder.decode(bytes);
  if (/<!DOCTYPE|<!ENTITY/i.test(textOf)) {
    throw new Unreadable('XML files with a DOCTYPE or entity declarations are not accepted.');
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    isArray: (name) => arrays.has(name),
    updateTag: (name) => {
      budget.check();
      return name;
    },
  });
  try {
    const parsed: unknown = parser.parse(textOf, true);
    if (!parsed || typeof parsed !== 'object') throw new Error('empty');
    return parsed as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    throw new Unreadable('The XML is damaged or truncated.');
  }
}

/** XML's five predefined entities, the only ones a file may use (no expansion beyond them). */
export function xmlText(value: unknown): string | undefined {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['#text'] : value;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const t = String(raw)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => safeChar(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => safeChar(parseInt(n, 16)))
    .replace(/&amp;/g, '&')
    .trim();
  return t === '' ? undefined : t;
}

/** A number an element or attribute holds; NaN when absent or blank (where Number('') would be 0). */
export function xmlNumber(value: unknown): number {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['#text'] : value;
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return NaN;
  return Number(raw);
}

/** An instant an element holds (ISO 8601), in epoch milliseconds; NaN when absent or unreadable. */
export function xmlTime(value: unknown): number {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['#text'] : value;
  return typeof raw === 'string' ? Date.parse(raw.trim()) : NaN;
}

const safeChar = (code: number) => (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '');

export const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export const child = (node: unknown, name: string): unknown =>
  node && typeof node === 'object' ? (node as Record<string, unknown>)[name] : undefined;
