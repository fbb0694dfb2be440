/* global window, document */
/* Sets the colour theme before the app loads (no flash of the wrong theme); web/lib/theme.ts keeps it after. */
(function () {
  var theme = 'auto';
  try {
    theme = window.localStorage.getItem('rt-theme') || 'auto';
  } catch {
    /* storage refused: follow the system */
  }
  var dark =
    theme === 'dark' ||
    (theme !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
})();
