/**
 * The element of a first screen's page that names, for each language but English, the catalogs of
 * the code the page loads (`{"de": ["/assets/de-….js", …], …}`, scripts/screen-chunks.ts):
 * first-answers.ts asks for them in the reader's language with the screen's answers. Its own module,
 * out of the entry chunk (the `/login` budget, decision 012).
 */
export const SCREEN_TEXTS_ID = 'screen-texts';
