import { useSyncExternalStore } from 'react';
import shell from 'virtual:i18n/shell';
import { useT } from '../../i18n/runtime';
import { toasts as defaultStore, type ToastStore, type ToastType } from './toast-store';

/** Each kind's colours, named whole (scripts/bootstrap-in-use.ts keeps only the classes the code names). */
const KINDS: Record<ToastType, string> = {
  info: 'text-bg-info',
  success: 'text-bg-success',
  warning: 'text-bg-warning',
  danger: 'text-bg-danger',
};

/** Renders the toast stack in the bottom-right corner, clear of the navbar; a polite live region announces new toasts. */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const t = useT(shell);
  const items = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <div
      className="toast-stack"
      aria-live="polite"
      aria-atomic="false"
      aria-label={t('shell.toasts.label')}
      role="region"
    >
      {items.map((toast) => (
        <div
          key={toast.id}
          className={`toast show align-items-center border-0 ${KINDS[toast.type]}`}
          role={toast.type === 'danger' ? 'alert' : 'status'}
        >
          <div className="d-flex">
            <div className="toast-body">{toast.text}</div>
            <button
              type="button"
              className={`btn-close me-2 m-auto${toast.type === 'success' || toast.type === 'danger' ? ' btn-close-white' : ''}`}
              aria-label={t('shell.toasts.close')}
              onClick={() => store.dismiss(toast.id)}
            />
          </div>
        </div>
      ))}
    </div>
  );
}
