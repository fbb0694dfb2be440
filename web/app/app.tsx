import { BrowserRouter } from 'react-router';
import { ensureSession } from '../features/auth/api/get-me';
import { AppProvider } from './provider';
import { AppRoutes } from './routes';
import { createAppQueryClient } from './session-expiry';

const queryClient = createAppQueryClient();
// The session check starts as soon as the script runs, not with the first render.
void ensureSession(queryClient);

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
