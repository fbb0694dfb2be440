/**
 * The server's texts in the request's language (CONTRACT.md §19). The code writes English; a
 * text is recognised by its template in en.ts (the most specific template that matches it whole)
 * and written again from the same key in the language asked for, its placeholders filled with
 * what the English text held: fields by their names in that language, numbers without English
 * grouping, a `{detail}` (a sentence of its own) translated too, data as sent. A text no
 * template matches stays English. English itself is never rewritten, so an English answer is
 * byte for byte what the code wrote.
 */
import type { Language } from '../languages.js';
import { de } from './de.js';
import { en, type ServerCatalog, type ServerMessageKey } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { nl } from './nl.js';

export const SERVER_CATALOGS: Record<Language, ServerCatalog> = { en, de, fr, es, it, nl };

/** `{name}` placeholders of a template, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`;
/** What each placeholder may hold in an English text; anything else: some text. */
const PLACEHOLDER_PATTERNS: Record<string, string> = {
  field: String.raw`[A-Za-z][A-Za-z_ ]*?`,
  values: String.raw`[^\s,]+(?:, [^\s,]+)* or [^\s,]+`,
  list: String.raw`[^\s,]+(?:, [^\s,]+)*(?: or [^\s,]+)?`,
  n: NUMBER,
  min: NUMBER,
  max: NUMBER,
  seconds: NUMBER,
  line: NUMBER,
  step: String.raw`\d+(?:st|nd|rd|th)`,
};

interface Template {
  key: ServerMessageKey;
  pattern: RegExp;
  names: string[];
  literal: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(key: ServerMessageKey, template: string): Template {
  const names = placeholdersOf(template);
  const parts = template.split(/\{\w+\}/);
  const source = parts
    .map((part, i) => escape(part) + (i < names.length ? `(${PLACEHOLDER_PATTERNS[names[i]!] ?? '.+?'})` : ''))
    .join('');
  return { key, pattern: new RegExp(`^${source}$`), names, literal: parts.join('').length };
}

let templates: Template[] | null = null;
/** Every sentence of the catalog, the most specific (most literal text) first. */
function allTemplates(): Template[] {
  templates ??= (Object.entries(en) as [ServerMessageKey, string][])
    .filter(([key]) => !key.includes('.'))
    .map(([key, text]) => compile(key, text))
    .sort((a, b) => b.literal - a.literal);
  return templates;
}

interface Recognised {
  key: ServerMessageKey;
  params: Record<string, string>;
  /** Data the English text added after the sentence, " (name)", kept as it is. */
  suffix: string;
}

function match(text: string): Recognised | null {
  for (const template of allTemplates()) {
    const found = template.pattern.exec(text);
    if (!found) continue;
    const params: Record<string, string> = {};
    template.names.forEach((name, i) => (params[name] = found[i + 1]!));
    return { key: template.key, params, suffix: '' };
  }
  return null;
}

/** The key of an English text (a reason: its `reason_code`), with its placeholders' values. */
export function recognise(text: string): Recognised | null {
  const whole = match(text);
  if (whole) return whole;
  // A reason about a file that a row named: the file's reason, then " (the file's name)".
  const named = /^(.+[.?!]) (\([^()]*\))$/.exec(text);
  const inner = named ? match(named[1]!) : null;
  return inner ? { ...inner, suffix: ` ${named![2]!}` } : null;
}

/** The stable code of an import row's reason: its key in the catalog, or `other` for a text it lacks. */
export function reasonCode(reason: string): string {
  return recognise(reason)?.key ?? 'other';
}

/** A template of `lang` with its placeholders filled. */
export function render(lang: Language, key: ServerMessageKey, params: Record<string, string | number> = {}): string {
  const catalog = SERVER_CATALOGS[lang];
  return catalog[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : localValue(catalog, lang, name, String(value));
  });
}

/** A placeholder's English value as `lang` writes it. */
function localValue(catalog: ServerCatalog, lang: Language, name: string, value: string): string {
  if (lang === 'en') return value;
  if (name === 'field') {
    const label = (catalog as Record<string, string>)[`field.${value.replace(/ /g, '_')}`];
    return label ?? value;
  }
  if (name === 'values' || name === 'list') return value.replace(/ or ([^\s,]+)$/, ` ${catalog['word.or']} $1`);
  if (name === 'step') return value.replace(/\D+$/, '');
  if (name === 'detail') return translate(value, lang);
  if (/^\d{1,3}(,\d{3})+$/.test(value)) return value.replace(/,/g, '');
  if (/^\d+\.\d+$/.test(value)) return value.replace('.', ',');
  return value;
}

/** An English text of the server in `lang`; English, and texts the catalog lacks, as they are. */
export function translate(text: string, lang: Language): string {
  if (lang === 'en') return text;
  const found = recognise(text);
  return found ? render(lang, found.key, found.params) + found.suffix : text;
}
