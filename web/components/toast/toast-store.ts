/**
 * Toast messages (SPEC §3, §9): id, text, type (default info) and a dismiss delay
 * (default 5000 ms). A small external store, so that code outside React (the
 * query client's global error handler) can raise a toast too.
 */
export type ToastType = 'info' | 'success' | 'warning' | 'danger';

export interface Toast {
  id: number;
  text: string;
  type: ToastType;
  dismissAfter: number;
}

export const DEFAULT_DISMISS_AFTER = 5000;

type Listener = () => void;

export function createToastStore() {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const listeners = new Set<Listener>();

  const emit = () => listeners.forEach((listener) => listener());

  function dismiss(id: number): void {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
    if (!toasts.some((toast) => toast.id === id)) return;
    toasts = toasts.filter((toast) => toast.id !== id);
    emit();
  }

  function show(text: string, type: ToastType = 'info', dismissAfter = DEFAULT_DISMISS_AFTER): number {
    // Several requests failing for one reason say it once; the message stays for the full delay.
    const same = toasts.find((toast) => toast.text === text && toast.type === type);
    if (same) {
      const timer = timers.get(same.id);
      if (timer !== undefined) clearTimeout(timer);
      if (dismissAfter > 0)
        timers.set(
          same.id,
          setTimeout(() => dismiss(same.id), dismissAfter),
        );
      return same.id;
    }
    const id = nextId++;
    toasts = [...toasts, { id, text, type, dismissAfter }];
    if (dismissAfter > 0)
      timers.set(
        id,
        setTimeout(() => dismiss(id), dismissAfter),
      );
    emit();
    return id;
  }

  function clear(): void {
    timers.forEach((timer) => clearTimeout(timer));
    timers.clear();
    toasts = [];
    emit();
  }

  return {
    show,
    dismiss,
    clear,
    getSnapshot: (): readonly Toast[] => toasts,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The app's toast store. */
export const toasts = createToastStore();

/** Shortcut used by screens: `notify('Entry was deleted!', 'success')`. */
export const notify = toasts.show;
