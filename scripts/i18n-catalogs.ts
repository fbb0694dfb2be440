/**
 * Build-time side of the languages (web/i18n/README.md): reads the catalogs of `web/i18n/messages/`, one
 * JSON file per language holding every key, and serves each namespace (a key's first segment) of
 * each language as a module of compiled messages, so that a screen's chunk carries only its own
 * texts and another language's texts are chunks of their own. Also makes the pseudo-language
 * from English. Runs in Node (the Vite and Vitest configs); the browser never loads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';

export const LANGUAGE_CODES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export const PSEUDO = 'pseudo';

const WEB_I18N = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'i18n');
const MESSAGES_DIR = path.join(WEB_I18N, 'messages');
const RUNTIME = path.join(WEB_I18N, 'runtime.ts');

export type Catalog = Record<string, string>;

/** The catalog of one language: `{ "auth.login.title": "Login", ... }`. */
export function readCatalog(language: string): Catalog {
  return JSON.parse(fs.readFileSync(path.join(MESSAGES_DIR, `${language}.json`), 'utf8')) as Catalog;
}

/** A key's namespace: its first segment (`auth.login.title` -> `auth`). */
export const namespaceOf = (key: string) => key.slice(0, key.indexOf('.'));

/** The namespaces of the English catalog, the source. */
export function namespaces(): string[] {
  return [...new Set(Object.keys(readCatalog('en')).map(namespaceOf))].sort();
}

/** Lingui's compiled form, or plain text (what the runtime reads, web/i18n/runtime.ts). */
type Token = CompiledMessage[number];
export type Compiled = string | Token[];

/** Accented letters for the pseudo-language: every letter still readable, none from a catalog by chance. */
const ACCENTS: Record<string, string> = Object.fromEntries(
  [...'aáeéiíoóuúcçnñsśzźAÁEÉIÍOÓUÚCÇNÑSŚZŹ'.matchAll(/(.)(.)/gu)].map((pair) => [pair[1]!, pair[2]!]),
);
const accent = (text: string) => text.replace(/[a-zA-Z]/g, (letter) => ACCENTS[letter] ?? letter);

/** The pseudo-language's message: English, accented and wrapped in `[…]`; placeholders and plurals kept. */
export function pseudoMessage(compiled: Compiled): Compiled {
  const walk = (tokens: Compiled): Compiled =>
    typeof tokens === 'string'
      ? accent(tokens)
      : tokens.map((token: Token) => {
          if (typeof token === 'string') return token === '#' ? token : accent(token);
          const [name, type, format] = token as [string, string?, Record<string, Compiled | number>?];
          if (type === 'plural' || type === 'select' || type === 'selectordinal') {
            const cases = Object.fromEntries(
              Object.entries(format ?? {}).map(([key, value]) => [
                key,
                // Lingui's compiler leaves `offset: undefined` in a plural's cases.
                value === undefined || typeof value === 'number' ? value : walk(value),
              ]),
            );
            return [name, type, cases] as unknown as Token;
          }
          return token;
        });
  const inner = walk(compiled);
  return typeof inner === 'string' ? `[${inner}]` : ['[', ...inner, ']'];
}

/** The compiled messages of one namespace in one language (the pseudo-language included). */
export function compiledNamespace(namespace: string, language: string): Record<string, Compiled> {
  const source = readCatalog(language === PSEUDO ? 'en' : language);
  const out: Record<string, Compiled> = {};
  for (const [key, message] of Object.entries(source)) {
    if (namespaceOf(key) !== namespace) continue;
    const compiled = compileMessageOrThrow(message);
    const final = language === PSEUDO ? pseudoMessage(compiled) : compiled;
    // Plain text stays a string: smaller chunks.
    out[key] = Array.isArray(final) && final.every((token) => typeof token === 'string') ? final.join('') : final;
  }
  return out;
}

const PREFIX = 'virtual:i18n/';

/** Whether `moduleId` is a namespace's module (`virtual:i18n/<namespace>`, its English texts). */
export const isTexts = (moduleId: string): boolean =>
  moduleId.startsWith(`\0${PREFIX}`) && !moduleId.slice(PREFIX.length + 1).includes('/');

/** The language of a catalog module (`virtual:i18n/<namespace>/<language>`, a lazy chunk), or null. */
export const catalogLanguage = (moduleId: string): string | null =>
  moduleId.startsWith(`\0${PREFIX}`) ? (moduleId.slice(PREFIX.length + 1).split('/')[1] ?? null) : null;

/**
 * The Vite plugin: `import texts from 'virtual:i18n/auth'` gives the namespace `auth`, its English
 * messages inside the importing chunk and every other language as a lazy chunk
 * (`virtual:i18n/auth/de`).
 */
export function i18nCatalogs() {
  return {
    name: 'running-times-i18n',
    resolveId(id: string) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id: string) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const [namespace = '', language] = id.slice(PREFIX.length + 1).split('/');
      if (language) return `export default ${JSON.stringify(compiledNamespace(namespace, language))};`;
      const loaders = [...LANGUAGE_CODES.slice(1), PSEUDO]
        .map((code) => `${JSON.stringify(code)}: () => import(${JSON.stringify(`${PREFIX}${namespace}/${code}`)})`)
        .join(', ');
      return [
        `import { defineTexts } from ${JSON.stringify(RUNTIME)};`,
        `export default defineTexts(${JSON.stringify(compiledNamespace(namespace, 'en'))}, { ${loaders} });`,
      ].join('\n');
    },
    configureServer(server: { watcher: { add(path: string): void } }) {
      server.watcher.add(MESSAGES_DIR);
    },
  };
}
