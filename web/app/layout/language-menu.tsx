import { useId } from 'react';
import shell from 'virtual:i18n/shell';
import { chooseLanguage, LANGUAGES, useLanguage, useT, type Language } from '../../i18n/runtime';

/**
 * The language menu of a visitor (CONTRACT.md §19): a native select, so the keyboard and screen
 * readers work as everywhere; each language named in itself. The choice is kept in this browser.
 */
export function LanguageMenu() {
  const t = useT(shell);
  const language = useLanguage();
  const id = useId();
  return (
    <div className="d-flex align-items-center gap-2 py-1 py-md-0 ms-md-2">
      <label htmlFor={id} className="visually-hidden">
        {t('shell.language.label')}
      </label>
      {/* Each language named in itself: not the app's text, so marked translate="no" for the checks. */}
      <select
        id={id}
        translate="no"
        className="form-select form-select-sm bg-dark text-light border-secondary"
        value={language === 'pseudo' ? 'en' : language}
        onChange={(event) => void chooseLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map(({ code, name }) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
