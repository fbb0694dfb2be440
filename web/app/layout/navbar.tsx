import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useAppConfig } from '../../features/auth/api/get-app-config';
import { useUser } from '../../features/auth/api/get-me';
import shell from 'virtual:i18n/shell';
import { useT } from '../../i18n/runtime';
import { LanguageMenu } from './language-menu';
import { navLinkClass } from './nav-link-class';

/**
 * A signed-in runner's menus come in a chunk of their own, loaded once there is a session: a
 * visitor's first load (/login, decision 012's budget) carries only the links a visitor has.
 */
export const loadRunnerMenus = () => import('./runner-menus');
const RunnerLinks = lazy(() => loadRunnerMenus().then((module) => ({ default: module.RunnerLinks })));
const AccountMenu = lazy(() => loadRunnerMenus().then((module) => ({ default: module.AccountMenu })));

export function Navbar() {
  const t = useT(shell);
  const user = useUser();
  // This product's source, when the server names it (SOURCE_URL or package.json): no link otherwise.
  const sourceUrl = useAppConfig().data?.source_url ?? null;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState(location.pathname);
  if (path !== location.pathname) {
    // Navigating closes the mobile menu.
    setPath(location.pathname);
    setOpen(false);
  }

  return (
    <header>
      <nav className="navbar navbar-expand-md navbar-dark bg-dark" aria-label={t('shell.nav.label')}>
        <div className="container">
          <Link className="navbar-brand" to="/">
            {t('shell.brand')}
          </Link>
          <button
            className="navbar-toggler"
            type="button"
            aria-controls="main-navigation"
            aria-expanded={open}
            aria-label={t('shell.nav.toggle')}
            onClick={() => setOpen((value) => !value)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div className={`collapse navbar-collapse${open ? ' show' : ''}`} id="main-navigation">
            <ul className="navbar-nav me-auto">
              {user ? (
                <Suspense fallback={null}>
                  <RunnerLinks user={user} />
                </Suspense>
              ) : null}
            </ul>
            <ul className="navbar-nav">
              {sourceUrl ? (
                <li className="nav-item">
                  <a className="nav-link" href={sourceUrl} rel="noopener noreferrer">
                    {t(
                      new URL(sourceUrl).hostname === 'github.com'
                        ? 'shell.nav.sourceOnGithub'
                        : 'shell.nav.sourceCode',
                    )}
                  </a>
                </li>
              ) : null}
              {user ? (
                <Suspense fallback={null}>
                  <AccountMenu user={user} />
                </Suspense>
              ) : (
                <>
                  <li className="nav-item">
                    <NavLink className={navLinkClass} to="/login">
                      {t('shell.nav.login')}
                    </NavLink>
                  </li>
                  <li className="nav-item">
                    <NavLink className={navLinkClass} to="/register">
                      {t('shell.nav.register')}
                    </NavLink>
                  </li>
                  <li className="nav-item">
                    <LanguageMenu />
                  </li>
                </>
              )}
            </ul>
          </div>
        </div>
      </nav>
    </header>
  );
}
