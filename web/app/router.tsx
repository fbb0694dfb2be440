import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { createRoutes } from './routes';

export const createAppRouter = (queryClient: QueryClient) => createBrowserRouter(createRoutes(queryClient));
