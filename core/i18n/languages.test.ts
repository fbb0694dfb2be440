/** Which of the six languages a request or a browser asks for (CONTRACT.md §19), and each one's short date. */
import { describe, expect, it } from 'vitest';
import { bestLanguage, dateFormatFor, languageOfAcceptLanguage } from './languages.js';

describe('Accept-Language', () => {
  it('is English without a header or with none of the six', () => {
    expect(languageOfAcceptLanguage(undefined)).toBe('en');
    expect(languageOfAcceptLanguage('')).toBe('en');
    expect(languageOfAcceptLanguage('ja')).toBe('en');
    expect(languageOfAcceptLanguage('ja, zh-CN;q=0.8, *;q=0.1')).toBe('en');
  });

  it('takes the highest q-value first, whatever the order', () => {
    expect(languageOfAcceptLanguage('de-DE,de;q=0.9')).toBe('de');
    expect(languageOfAcceptLanguage('fr;q=0.4, nl;q=0.8, en;q=0.6')).toBe('nl');
    expect(languageOfAcceptLanguage('ja, it;q=0.5, es;q=0.3')).toBe('it');
  });

  it('breaks ties in the header’s order (no q-value is 1)', () => {
    expect(languageOfAcceptLanguage('es, fr')).toBe('es');
    expect(languageOfAcceptLanguage('fr;q=0.7, es;q=0.7')).toBe('fr');
    expect(languageOfAcceptLanguage('it;q=1, de')).toBe('it');
  });

  it('leaves out what q=0 excludes', () => {
    expect(languageOfAcceptLanguage('de;q=0, fr;q=0.1')).toBe('fr');
    expect(languageOfAcceptLanguage('de;q=0')).toBe('en');
    expect(languageOfAcceptLanguage('nl;q=0.000, es;q=0.2')).toBe('es');
  });

  it('matches a regional tag by its language, in any case', () => {
    expect(languageOfAcceptLanguage('de-CH')).toBe('de');
    expect(languageOfAcceptLanguage('FR-be;q=0.9, en;q=0.8')).toBe('fr');
    expect(languageOfAcceptLanguage('pt-BR, nl-BE;q=0.5')).toBe('nl');
  });

  it('skips a q-value that is no number from 0 to 1', () => {
    expect(languageOfAcceptLanguage('de;q=2, fr;q=abc, it;q=0.5')).toBe('it');
  });

  it('accepts the browser’s list of languages', () => {
    expect(bestLanguage(['de-AT', 'en'])).toBe('de');
    expect(bestLanguage(['ja', 'ko'])).toBe('en');
  });
});

describe('dateFormatFor', () => {
  it('gives each language its short date, English for any other', () => {
    expect(dateFormatFor('en')).toBe('MM/DD/YYYY');
    expect(dateFormatFor('de')).toBe('DD.MM.YYYY');
    expect(dateFormatFor('fr')).toBe('DD/MM/YYYY');
    expect(dateFormatFor('es')).toBe('DD/MM/YYYY');
    expect(dateFormatFor('it')).toBe('DD/MM/YYYY');
    expect(dateFormatFor('nl')).toBe('DD-MM-YYYY');
    expect(dateFormatFor('ja')).toBe('MM/DD/YYYY');
    expect(dateFormatFor(null)).toBe('MM/DD/YYYY');
  });
});
