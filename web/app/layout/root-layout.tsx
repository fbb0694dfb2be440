import { Component, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigationType } from 'react-router';
import type { User } from '../../../core/schemas.js';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { applyTheme, storedTheme } from '../../lib/theme';
import { DEFAULT_DISPLAY, DisplayContext, type DisplayPreferences } from '../../lib/display-context';
import shell from 'virtual:i18n/shell';
import { followUserLocale, t, useT } from '../../i18n/runtime';
import { Navbar } from './navbar';

function Footer() {
  const t = useT(shell);
  return (
    <footer className="border-top py-3 mt-auto">
      <div className="container d-flex flex-wrap gap-3 small">
        <span>{t('shell.footer.copyright')}</span>
        <Link to="/policy">{t('shell.footer.policy')}</Link>
        <Link to="/delete-account">{t('shell.footer.accountDeletion')}</Link>
      </div>
    </footer>
  );
}

/** Scroll positions of the screens visited, by history entry. */
const scrollPositions = new Map<string, number>();

/**
 * Scrolls like page loads do: a new screen starts at the top (or at its #hash),
 * Back and Forward return to where that screen was left.
 */
function useScrollRestoration() {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();
  // The history entry that scrolling belongs to; it changes when the next screen is in the page.
  const shown = useRef(key);
  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const save = () => scrollPositions.set(shown.current, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, []);
  useLayoutEffect(() => {
    shown.current = key;
    const saved = navigationType === 'POP' ? scrollPositions.get(key) : undefined;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (saved !== undefined) window.scrollTo(0, saved);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, hash, navigationType]);
}

/** A screen that fails to render (or whose chunk fails to load) shows a notice until the next navigation. */
class ScreenErrorBoundary extends Component<
  { resetKey: string; children: ReactNode },
  { failed: boolean; resetKey: string }
> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <PageTitle title={t('shell.error.title')}>{t('shell.error.heading')}</PageTitle>
        <p>{t('shell.error.body')}</p>
        <Link to="/">{t('shell.error.home')}</Link>
      </>
    );
  }
}

/** The signed-in runner's theme (a visitor keeps this browser's last one), applied and followed. */
function useTheme(theme: User['theme'] | undefined) {
  useEffect(() => applyTheme(theme ?? storedTheme()), [theme]);
}

/** The signed-in runner's `locale` decides the language (unless `auto`); a visitor's is the menu's or the browser's. */
function useUserLanguage(user: User | null) {
  // `locale` arrives with CONTRACT.md §19's users; a server without it answers without the field.
  const locale = user ? (user as { locale?: unknown }).locale : null;
  useEffect(() => void followUserLocale(locale), [locale]);
}

/** How the signed-in runner reads numbers and dates; the defaults for a visitor. */
function useDisplayPreferences(user: User | null): DisplayPreferences {
  const { units, pace_format: paceFormat, date_format: dateFormat, timezone: timeZone } = user ?? {};
  return useMemo(
    () => (units && paceFormat && dateFormat ? { units, paceFormat, dateFormat, timeZone } : DEFAULT_DISPLAY),
    [units, paceFormat, dateFormat, timeZone],
  );
}

/** A form's or a text's page: narrow and centred (`.page-narrow` in styles.css, where the scheme is told). */
export function NarrowPage() {
  return (
    <div className="page-narrow">
      <Outlet />
    </div>
  );
}

export function RootLayout() {
  const location = useLocation();
  const user = useUser();
  useScrollRestoration();
  useTheme(user?.theme);
  useUserLanguage(user);
  const t = useT(shell);
  const display = useDisplayPreferences(user);
  return (
    <DisplayContext.Provider value={display}>
      <div className="d-flex flex-column min-vh-100">
        <a className="visually-hidden-focusable skip-link" href="#main-content">
          {t('shell.skipToContent')}
        </a>
        <Navbar />
        <main id="main-content" className="container py-4 flex-grow-1" tabIndex={-1}>
          <ScreenErrorBoundary resetKey={location.key}>
            <Outlet />
          </ScreenErrorBoundary>
        </main>
        <Footer />
      </div>
    </DisplayContext.Provider>
  );
}
