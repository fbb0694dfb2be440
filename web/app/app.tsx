import { BrowserRouter } from 'react-router';
import { ensureSession } from '../features/auth/api/get-me';
import { AppProvider } from './provider';
import { tokenStorage } from '../lib/token-storage';
import { AppRoutes, startSignedInScreen } from './routes';
import { createAppQueryClient } from './session-expiry';

const queryClient = createAppQueryClient();
// The session check starts as soon as the script runs, not with the first render, and with it the
// chunks of what a signed-in runner's screen shows.
void ensureSession(queryClient);
if (tokenStorage.get() !== null) startSignedInScreen(window.location.pathname, queryClient);

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
