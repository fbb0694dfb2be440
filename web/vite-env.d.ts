/// <reference types="vite/client" />

/** One namespace's texts of web/i18n/messages/ (web/i18n/catalog-build.ts). */
declare module 'virtual:i18n/*' {
  // An ambient module cannot have an import statement of a relative path.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const texts: import('./i18n/runtime').Texts;
  export default texts;
}
