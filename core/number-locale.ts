/**
 * How numbers and `auto` dates are written in the web app's language (CONTRACT.md §19): set in
 * one place (web/i18n/runtime.ts) when the language changes; read by core/format.ts. The server
 * never sets it, so it writes English (a decimal point, MM/DD/YYYY).
 */
import { dateFormatFor, type LanguageDateFormat } from './i18n/languages.js';

export const numberLocale: { decimalSeparator: '.' | ','; shortDate: LanguageDateFormat } = {
  decimalSeparator: '.',
  shortDate: dateFormatFor('en'),
};

/** The language's decimal separator (a comma in all but English) and short date. */
export function setNumberLanguage(language: string): void {
  const base = language === 'pseudo' ? 'en' : language;
  numberLocale.decimalSeparator = base === 'en' ? '.' : ',';
  numberLocale.shortDate = dateFormatFor(base);
}
