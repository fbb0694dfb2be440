/**
 * The six languages of the product (CONTRACT.md §19), which one a request or a browser asks for,
 * and each language's short date. Plain constants and functions: the web app's first screen may
 * import them.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** English: the source of every text, and the language of a request that names none of the six. */
export const SOURCE_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** One of the six for a language tag: `de-CH` and `DE` are German; `ja`, `*` and `deu` are none. */
export function languageOfTag(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLanguage(primary) ? primary : null;
}

/**
 * The best of the six for a list of language tags in order of preference (the browser's
 * `navigator.languages`): the first one that is one of the six, else English.
 */
export function bestLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return SOURCE_LANGUAGE;
}

/**
 * The language an `Accept-Language` header asks for (RFC 9110 §12.5.4): the tags by q-value,
 * highest first, ties in the header's order; `q=0` means "not this one"; a q-value that is not a
 * number from 0 to 1 leaves its tag out. No header, or none of the six: English.
 */
export function languageOfAcceptLanguage(header: string | readonly string[] | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : (header as string | undefined);
  if (!text) return SOURCE_LANGUAGE;
  const ranked: { tag: string; q: number; order: number }[] = [];
  text.split(',').forEach((part, order) => {
    const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!tag) return;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/i.exec(param);
      if (!match) continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(match[1]!) ? Number(match[1]) : -1;
    }
    if (q > 0) ranked.push({ tag, q, order });
  });
  ranked.sort((a, b) => b.q - a.q || a.order - b.order);
  return bestLanguage(ranked.map((entry) => entry.tag));
}

/**
 * The short date of each language, which `date_format: "auto"` follows (CONTRACT.md §19):
 * `en` MM/DD/YYYY, `de` DD.MM.YYYY, `fr`/`es`/`it` DD/MM/YYYY, `nl` DD-MM-YYYY.
 */
export const LANGUAGE_DATE_FORMATS = {
  en: 'MM/DD/YYYY',
  de: 'DD.MM.YYYY',
  fr: 'DD/MM/YYYY',
  es: 'DD/MM/YYYY',
  it: 'DD/MM/YYYY',
  nl: 'DD-MM-YYYY',
} as const satisfies Record<Language, string>;
export type LanguageDateFormat = (typeof LANGUAGE_DATE_FORMATS)[Language];

/** The short date `date_format: "auto"` means in `lang` (English's for anything else). */
export function dateFormatFor(lang: string | null | undefined): LanguageDateFormat {
  return LANGUAGE_DATE_FORMATS[isLanguage(lang) ? lang : SOURCE_LANGUAGE];
}
