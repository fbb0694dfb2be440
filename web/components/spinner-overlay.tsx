import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import shell from 'virtual:i18n/shell';
import { useT } from '../i18n/runtime';

/**
 * Covers the page while any request is in flight (SPEC §2 Global). A click
 * dismisses it for the requests in flight now; the next request shows it again.
 */
export function SpinnerOverlay() {
  const t = useT(shell);
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
        <span className="visually-hidden">{t('shell.loading')}</span>
      </div>
    </div>
  );
}
