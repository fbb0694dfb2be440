import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useUser } from '../../features/auth/api/get-me';
import { logout } from '../../features/auth/api/logout';
import { forgetOfflineData, offlineQueue } from '../../features/entries/offline-queue';

// Loaded when a logout finds runs still waiting in the browser: the warning about them.
const LogoutWarning = lazy(() => import('../../features/entries/components/logout-check'));

/**
 * /logout: warns when runs added offline still wait (CONTRACT.md §20), forgets them and every cached
 * answer, ends the session (server and browser), then goes to /; a visitor is sent to /login.
 * A lazy screen like the others: none of it is in the first load of /login (decision 012).
 */
export function Component() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useUser();
  // Who was signed in when the route opened: ending the session must not turn this into a visit to /login.
  const [userId] = useState(user?.id ?? null);
  const [waiting, setWaiting] = useState(0);
  const started = useRef(false);
  const leave = useCallback(async () => {
    setWaiting(0);
    await forgetOfflineData();
    await logout(queryClient);
    await navigate('/', { replace: true });
  }, [queryClient, navigate]);
  useEffect(() => {
    if (userId === null || started.current) return;
    started.current = true;
    void (async () => {
      const count = (await offlineQueue.list(userId).catch(() => [])).length;
      if (count > 0) setWaiting(count);
      else await leave();
    })();
  }, [userId, leave]);
  if (userId === null) return <Navigate to="/login" replace />;
  if (waiting === 0) return null;
  return (
    <Suspense fallback={null}>
      <LogoutWarning
        count={waiting}
        onLeave={() => void leave()}
        onStay={() => void navigate('/dashboard', { replace: true })}
      />
    </Suspense>
  );
}
