import { isRouteErrorResponse, Link, Outlet, ScrollRestoration, useRouteError } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Navbar } from './navbar';

function Footer() {
  return (
    <footer className="border-top py-3 mt-auto">
      <div className="container d-flex flex-wrap gap-3 small">
        <span>© Running Times</span>
        <Link to="/policy">Privacy policy</Link>
        <Link to="/delete-account">Account deletion</Link>
      </div>
    </footer>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="d-flex flex-column min-vh-100">
      <a className="visually-hidden-focusable skip-link" href="#main-content">
        Skip to main content
      </a>
      <Navbar />
      <main id="main-content" className="container py-4 flex-grow-1" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

export function RootLayout() {
  return (
    <Shell>
      <Outlet />
      <ScrollRestoration />
    </Shell>
  );
}

/** Shown while the session is checked before the first screen. */
export function RootHydrateFallback() {
  return null;
}

export function RootErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Shell>
      <PageTitle title={notFound ? 'Error 404' : 'Error'}>{notFound ? 'Error 404' : 'Something went wrong'}</PageTitle>
      <p>{notFound ? 'Page not found.' : 'This page could not be shown. Reload the page to try again.'}</p>
      <Link to="/">Back to the home page</Link>
    </Shell>
  );
}
