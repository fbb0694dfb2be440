/// <reference types="vite/client" />

/** One namespace's texts of web/i18n/messages/ (web/i18n/catalog-build.ts). */
declare module 'virtual:i18n/*' {
  const texts: import('./i18n/runtime').Texts;
  export default texts;
}
