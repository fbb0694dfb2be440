import type { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AppProvider } from '../app/provider';
import { createQueryClient } from '../app/query-client';
import { AppRoutes } from '../app/routes';
import { createAppQueryClient } from '../app/session-expiry';
import { DEFAULT_DISPLAY, DisplayContext, type DisplayPreferences } from '../lib/display-context';

/** `ui` as a runner with these preferences sees it (the defaults otherwise: km, decimal paces, MM/DD/YYYY, UTC). */
export function withDisplay(preferences: Partial<DisplayPreferences>, ui: ReactNode) {
  return (
    <DisplayContext.Provider value={{ ...DEFAULT_DISPLAY, timeZone: 'UTC', ...preferences }}>
      {ui}
    </DisplayContext.Provider>
  );
}

/** Shows the current path, so tests can assert where a navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** The path (and query) the router shows now, as `LocationProbe` renders it. */
export const currentPath = () => screen.getByTestId('location').textContent;

/** Renders one screen inside the app's providers and a memory router, as a runner with `display` preferences. */
export function renderWithApp(
  ui: ReactNode,
  {
    path = '/',
    route = '/',
    display = {},
  }: { path?: string; route?: string; display?: Partial<DisplayPreferences> } = {},
) {
  const queryClient = createQueryClient();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route
            path={path}
            element={withDisplay(
              display,
              <>
                {ui}
                <LocationProbe />
              </>,
            )}
          />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...view, queryClient };
}

/**
 * Renders the whole app's route tree (guards included) with the app's query client,
 * at a path or after a history of paths (the last one current), with a
 * `LocationProbe` and `extra` beside it.
 */
export function renderRoutes(
  route: string | string[],
  queryClient: QueryClient = createAppQueryClient(),
  extra: ReactNode = null,
) {
  const view = render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={typeof route === 'string' ? [route] : route}>
        <LocationProbe />
        {extra}
        <AppRoutes />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...view, queryClient };
}
