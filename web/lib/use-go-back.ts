import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Goes back one step like the browser's Back button, or to `fallback` when the
 * page was opened directly (there is no earlier page of this app to return to).
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? Number(state.idx) : 0;
    if (index > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
