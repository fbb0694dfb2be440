/**
 * The catalogs' checks (CONTRACT.md §19, web/i18n/README.md): every key in every language with the
 * same placeholders, every message valid, every key used by the web sources and every key they
 * use in the catalogs, the pseudo-language made from English, a glossary beside each language.
 */
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './runtime';

const catalogs = import.meta.glob<Record<string, string>>('/web/i18n/messages/*.json', {
  import: 'default',
  eager: true,
});
const catalog = (code: string) => catalogs[`/web/i18n/messages/${code}.json`] ?? {};
const english = catalog('en');
const others = LANGUAGES.map(({ code }) => code).filter((code) => code !== 'en');

const sources = import.meta.glob<string>(['/web/**/*.{ts,tsx}', '!**/*.test.{ts,tsx}', '!/web/test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const glossaries = import.meta.glob<string>('/web/i18n/glossary/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** A message's placeholders, with the kind of each (`count:plural`, `title`), sorted. */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (tokens: CompiledMessage | string) => {
    if (typeof tokens === 'string') return;
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      const [name, type, cases] = token as [string, string?, Record<string, CompiledMessage | number>?];
      found.add(type ? `${name}:${type}` : name);
      // A plural's `offset` is a number, or undefined when the message sets none.
      for (const value of Object.values(cases ?? {})) if (value !== undefined && typeof value !== 'number') walk(value);
    }
  };
  walk(compileMessageOrThrow(message));
  return [...found].sort();
}

describe('the catalogs', () => {
  it('are six, English the source with the shell and the guest screens', () => {
    expect(Object.keys(catalogs)).toHaveLength(LANGUAGES.length);
    expect(english['shell.nav.login']).toBe('Login');
    expect(Object.keys(english).length).toBeGreaterThan(50);
  });

  it.each(others)('%s has every key of English and no other', (code) => {
    const keys = new Set(Object.keys(catalog(code)));
    const missing = Object.keys(english).filter((key) => !keys.has(key));
    const extra = [...keys].filter((key) => !(key in english));
    expect(missing, `keys missing in ${code}`).toEqual([]);
    expect(extra, `keys in ${code} that English does not have`).toEqual([]);
  });

  it.each(['en', ...others])('%s: every message is a valid ICU message with the placeholders of English', (code) => {
    const wrong: string[] = [];
    for (const [key, message] of Object.entries(catalog(code))) {
      expect(message.trim(), `${code}: ${key} is empty`).not.toBe('');
      try {
        compileMessageOrThrow(message);
      } catch (error) {
        wrong.push(`${code}: ${key} does not compile (${String(error)})`);
        continue;
      }
      if (key in english && JSON.stringify(placeholders(message)) !== JSON.stringify(placeholders(english[key]!))) {
        wrong.push(
          `${code}: ${key} has {${placeholders(message).join(', ')}}, English {${placeholders(english[key]!).join(', ')}}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(['en', ...others])('%s has a glossary of the runners’ words', (code) => {
    const glossary = glossaries[`/web/i18n/glossary/${code}.md`] ?? '';
    for (const word of ['run', 'pace', 'split', 'lap', 'shoe', 'goal', 'best effort', 'route', 'segment']) {
      expect(glossary, `${code}'s glossary names "${word}"`).toMatch(new RegExp(`^\\|\\s*${word}\\s*\\|`, 'im'));
    }
  });
});

describe('the keys in the web sources', () => {
  const namespaces = new Set(Object.keys(english).map((key) => key.slice(0, key.indexOf('.'))));
  /** Every string literal of the sources that looks like a key of a namespace: `'shell.nav.login'`. */
  const literals = new Map<string, string>();
  for (const [file, source] of Object.entries(sources)) {
    for (const [, key = ''] of source.matchAll(/['"`]([a-zA-Z]+\.[a-zA-Z0-9.]+)['"`]/g)) {
      if (namespaces.has(key.slice(0, key.indexOf('.')))) literals.set(key, file);
    }
  }

  it('use every key of the catalogs', () => {
    expect(Object.keys(english).filter((key) => !literals.has(key))).toEqual([]);
  });

  it('use no key that English lacks', () => {
    expect([...literals].filter(([key]) => !(key in english)).map(([key, file]) => `${file}: ${key}`)).toEqual([]);
  });

  it('load each namespace from its virtual module', () => {
    const imported = new Set<string>();
    for (const source of Object.values(sources)) {
      for (const [, name = ''] of source.matchAll(/from 'virtual:i18n\/(\w+)'/g)) imported.add(name);
    }
    expect([...namespaces].filter((name) => !imported.has(name))).toEqual([]);
  });
});

describe('the pseudo-language', () => {
  it('is English accented and in brackets, with its placeholders and plurals kept', async () => {
    const pseudo = (await import('virtual:i18n/register/pseudo')).default as unknown as Record<string, unknown>;
    expect(pseudo['register.title']).toBe('[Régíśtér]');
    expect(JSON.stringify(pseudo['register.passwordTooShort'])).toContain('["min"]');
  });
});
