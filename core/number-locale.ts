/**
 * How numbers and `auto` dates are written in the web app's language (CONTRACT.md §19): set in
 * one place (web/i18n/runtime.ts) when the language changes; read by core/format.ts. The server
 * never sets it, so it writes English (a decimal point, MM/DD/YYYY).
 */
export type ShortDateOrder = 'MM/DD/YYYY' | 'DD.MM.YYYY' | 'DD/MM/YYYY' | 'DD-MM-YYYY';

export const numberLocale: { decimalSeparator: '.' | ','; shortDate: ShortDateOrder } = {
  decimalSeparator: '.',
  shortDate: 'MM/DD/YYYY',
};

const SHORT_DATES: Record<string, ShortDateOrder> = {
  de: 'DD.MM.YYYY',
  fr: 'DD/MM/YYYY',
  es: 'DD/MM/YYYY',
  it: 'DD/MM/YYYY',
  nl: 'DD-MM-YYYY',
};

/** The language's decimal separator (a comma in all but English) and short date. */
export function setNumberLanguage(language: string): void {
  const base = language === 'pseudo' ? 'en' : language;
  numberLocale.decimalSeparator = base === 'en' ? '.' : ',';
  numberLocale.shortDate = SHORT_DATES[base] ?? 'MM/DD/YYYY';
}
