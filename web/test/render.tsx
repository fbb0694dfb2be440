import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { AppProvider } from '../app/provider';
import { createQueryClient } from '../app/query-client';
import { createRoutes } from '../app/routes';

/** Shows the current path, so tests can assert where a navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Renders one screen inside the app's providers and a memory router. */
export function renderWithApp(ui: ReactNode, { path = '/', route = '/' } = {}) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      {
        path,
        element: (
          <>
            {ui}
            <LocationProbe />
          </>
        ),
      },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [route] },
  );
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, queryClient, router };
}

/** Renders the whole app's route tree at a path (guards included). */
export function renderRoutes(route: string, queryClient: QueryClient = createQueryClient()) {
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [route] });
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, queryClient, router };
}
