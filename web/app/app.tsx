import { RouterProvider } from 'react-router';
import { endSession } from '../features/auth/api/get-me';
import { AppProvider } from './provider';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

const queryClient = createQueryClient({
  onSessionExpired: () => {
    endSession(queryClient);
    void router.navigate('/login');
  },
});
const router = createAppRouter(queryClient);

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
