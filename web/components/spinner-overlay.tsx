import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * Covers the page while any request is in flight (SPEC §2 Global). A click
 * dismisses it for the requests in flight now; the next request shows it again.
 */
export function SpinnerOverlay() {
  const busy = useIsFetching() + useIsMutating() > 0;
  const [dismissed, setDismissed] = useState(false);
  const [wasBusy, setWasBusy] = useState(busy);
  if (busy !== wasBusy) {
    setWasBusy(busy);
    if (!busy) setDismissed(false);
  }
  if (!busy || dismissed) return null;
  return (
    <div className="spinner-overlay" data-testid="spinner-overlay" onClick={() => setDismissed(true)}>
      <div className="spinner-ring" role="status">
        <span className="visually-hidden">Loading…</span>
      </div>
    </div>
  );
}
