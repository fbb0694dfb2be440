/**
 * The folding of the users search: the same in the server, both databases and the browser.
 *
 * JavaScript's lower-casing, then the two mappings that make it keep substrings: `İ`
 * lower-cases to `i` and a combining dot above (U+0307), read back as `i`, so `İstanbul`,
 * `ISTANBUL` and `istanbul` fold alike; a final sigma `ς` is read as `σ`, so a word's
 * beginning folds as it does inside the word. A text contains a query, case-insensitively,
 * when the text's fold contains the query's fold.
 */
export function foldSearch(text: string): string {
  return text
    .toLowerCase()
    .replace(/i\u0307/g, 'i')
    .replace(/ς/g, 'σ');
}

/**
 * The stored search text of a user: the folded name, a newline and the folded e-mail.
 * Names and e-mails hold no control characters, so a query never matches across the two.
 */
export function userSearchText(name: string, email: string): string {
  return `${foldSearch(name)}\n${foldSearch(email)}`;
}
