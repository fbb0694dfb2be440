/**
 * The web app's language (CONTRACT.md §19; how to use it: web/i18n/README.md). The catalogs'
 * ICU messages are compiled at build time by Lingui's compiler (scripts/i18n-catalogs.ts); this
 * module fills them in (`format`, Lingui's compiled form read in 30 lines, decision 035), decides
 * the language, loads each namespace's texts in it and tells React when it changes.
 */
import { useSyncExternalStore } from 'react';
import { setNumberLanguage } from '../../core/number-locale.js';

/** The six languages, each named in itself, in the language menu's order. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'es', name: 'Español' },
  { code: 'it', name: 'Italiano' },
  { code: 'nl', name: 'Nederlands' },
] as const;

/** A language of the menu, or `pseudo`: English accented and in brackets, for the checks (never in the menu). */
export type Language = (typeof LANGUAGES)[number]['code'] | 'pseudo';

const isLanguage = (value: unknown): value is Language =>
  value === 'pseudo' || LANGUAGES.some((language) => language.code === value);

/** A message as Lingui's compiler leaves it: text, or text and `[name]` / `[name, type, cases]` tokens. */
type Token = string | [name: string, type?: string, cases?: Record<string, Compiled | number>];
export type Compiled = string | Token[];
export type Messages = Record<string, Compiled>;

type Loader = () => Promise<{ default: Messages }>;

/** One namespace's texts (`virtual:i18n/<namespace>`): English at hand, the others loaded when chosen. */
export interface Texts {
  loaders: Partial<Record<Language, Loader>>;
  loading: Partial<Record<Language, Promise<void>>>;
  loaded: Set<Language>;
}

const catalogs: Partial<Record<Language, Messages>> = { en: {} };
const allTexts: Texts[] = [];
const listeners = new Set<() => void>();
let current: Language = 'en';

/**
 * Called by each `virtual:i18n/<namespace>` module: its English messages and the loaders of the others.
 * A namespace that arrives in another language (a screen's chunk, for a runner reading German) starts
 * loading its texts in it at once, with the others of its chunk: not one after the other, as each
 * component that uses them renders and waits (the German dashboard's first load fetched its 11
 * catalogs in three waves).
 */
export function defineTexts(en: Messages, loaders: Texts['loaders']): Texts {
  Object.assign(catalogs.en!, en);
  const texts: Texts = { loaders, loading: {}, loaded: new Set(['en']) };
  allTexts.push(texts);
  if (texts.loaders[current]) void loadTexts(texts, current);
  return texts;
}

/** The texts of a namespace in `language`, loaded once. */
function loadTexts(texts: Texts, language: Language): Promise<void> {
  if (texts.loaded.has(language)) return Promise.resolve();
  texts.loading[language] ??= texts.loaders[language]!().then((module) => {
    catalogs[language] = { ...catalogs[language], ...module.default };
    texts.loaded.add(language);
  });
  return texts.loading[language];
}

function activate(language: Language): void {
  current = language;
  document.documentElement.lang = language === 'pseudo' ? 'en' : language;
  setNumberLanguage(language);
  for (const listener of listeners) listener();
}

/** Switches to `language` once every namespace already in use has its texts in it (no flash, no blank page). */
async function switchTo(language: Language): Promise<void> {
  if (language === current) return;
  await Promise.all(allTexts.map((texts) => loadTexts(texts, language)));
  // A later choice (the user's locale arriving, the menu again) may have overtaken this one.
  if (resolveLanguage() === language) activate(language);
}

export const currentLanguage = (): Language => current;

/** What the API is told (`Accept-Language`): the language, English for the pseudo-language. */
export const requestLanguage = (): string => (current === 'pseudo' ? 'en' : current);

// ---- Which language (§19's order): the user's locale, the menu's choice, the browser's, English.

const STORAGE_KEY = 'language';
let userLocale: Language | null = null;

function storedChoice(): Language | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** The best match of the browser's languages: `de-AT` -> `de`; null without one. */
export function browserLanguage(languages: readonly string[]): Language | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base !== 'pseudo' && isLanguage(base)) return base;
  }
  return null;
}

/** The language by §19's order. */
export function resolveLanguage(): Language {
  return userLocale ?? storedChoice() ?? browserLanguage(navigator.languages ?? [navigator.language]) ?? 'en';
}

/** The language menu's choice, kept in this browser. */
export function chooseLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // A browser that keeps nothing still switches for this visit.
  }
  return switchTo(resolveLanguage());
}

/** The signed-in user's `locale` (`auto`, absent or unknown: none); null when signed out. */
export function followUserLocale(locale: unknown): Promise<void> {
  userLocale = isLanguage(locale) && locale !== 'pseudo' ? locale : null;
  return switchTo(resolveLanguage());
}

/**
 * The language of the first screen, before it renders: `?lang=<code>` (e.g. `?lang=pseudo` for
 * the checks) counts as a choice from the menu; screens wait for their texts (useT suspends).
 */
export function startLanguage(): void {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (isLanguage(asked)) {
    try {
      window.localStorage.setItem(STORAGE_KEY, asked);
    } catch {
      // As in chooseLanguage.
    }
  }
  const language = resolveLanguage();
  if (language !== current) activate(language);
}

// ---- Texts in components and elsewhere.

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The current language, re-rendering on a change. */
export const useLanguage = (): Language => useSyncExternalStore(subscribe, currentLanguage, currentLanguage);

const locale = () => (current === 'pseudo' ? 'en' : current);

/**
 * Intl's formatters, made once per language and kind: making one costs far more than using it, and
 * a screen formats hundreds of numbers (a phone's main thread, Lighthouse's total blocking time).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.PluralRules>();
function formatterOf<T extends Intl.NumberFormat | Intl.PluralRules>(kind: string, make: () => T): T {
  const key = `${locale()} ${kind}`;
  let found = formatters.get(key) as T | undefined;
  if (!found) formatters.set(key, (found = make()));
  return found;
}

/** A number in the language: its decimal separator, no grouping separator (§19). */
const formatNumber = (value: number) =>
  formatterOf('number', () => new Intl.NumberFormat(locale(), { useGrouping: false })).format(value);

/** Fills in a compiled message; `hash` is what `#` stands for inside a plural. */
function format(message: Compiled | number | undefined, values: Record<string, unknown>, hash?: string): string {
  if (typeof message !== 'object') return String(message ?? '');
  return message
    .map((token) => {
      if (typeof token === 'string') return token === '#' && hash !== undefined ? hash : token;
      const [name, type, cases = {}] = token;
      const value = values[name];
      if (type === 'plural' || type === 'selectordinal') {
        const n = Number(value) - Number(cases.offset ?? 0);
        const kind = type === 'plural' ? 'cardinal' : 'ordinal';
        const rule = formatterOf(kind, () => new Intl.PluralRules(locale(), { type: kind })).select(n);
        return format(cases[String(value)] ?? cases[rule] ?? cases.other, values, formatNumber(n));
      }
      if (type === 'select') return format(cases[String(value)] ?? cases.other, values);
      return typeof value === 'number' ? formatNumber(value) : String(value ?? '');
    })
    .join('');
}

/**
 * A text of the catalogs in the current language, its placeholders filled in:
 * `t('register.passwordHint', { min: 8 })`. English while a language lacks it; the key itself for
 * a key no catalog has (the checks of `npm test` keep that from happening).
 */
export function t(key: string, values: Record<string, unknown> = {}): string {
  return format(catalogs[current]?.[key] ?? catalogs.en![key] ?? key, values);
}

/**
 * The `t` of a component: re-renders it when the language changes and waits (Suspense) until its
 * namespace's texts are there. `const t = useT(texts)` with `import texts from 'virtual:i18n/<ns>'`.
 */
export function useT(texts: Texts): typeof t {
  const language = useLanguage();
  // Suspense's protocol: the screen shows once its texts are there.
  if (!texts.loaded.has(language)) throw loadTexts(texts, language);
  return t;
}

/**
 * A sentence with an element inside (a link): the text before and after the placeholder `name`,
 * so that each language places the element where its word order wants it.
 * `const [before, after] = splitAround(t, 'policy.deleting.body', 'link')`.
 */
export function splitAround(translate: typeof t, key: string, name: string): [string, string] {
  const [before = '', after = ''] = translate(key, { [name]: '\u0000' }).split('\u0000');
  return [before, after];
}
