import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import common from 'virtual:i18n/common';
import { useT } from '../i18n/runtime';

/** The words of a confirmation: a deletion's (Please confirm, Delete, Cancel, from the catalog) by default. */
export interface ConfirmWording {
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirming button's colour: red for what cannot be undone. */
  tone?: 'danger' | 'primary';
}

interface Pending {
  message: string;
  wording: ConfirmWording;
  resolve: (confirmed: boolean) => void;
}

/**
 * `const { confirm, dialog } = useConfirm(); if (await confirm('Delete?')) ...`
 * Renders an accessible modal (focus moves to it, Escape cancels, focus returns).
 */
export function useConfirm(): {
  confirm: (message: string, wording?: ConfirmWording) => Promise<boolean>;
  dialog: ReactNode;
} {
  // The dialog's own words are ready before it opens.
  useT(common);
  const [pending, setPending] = useState<Pending | null>(null);

  const confirm = useCallback(
    (message: string, wording: ConfirmWording = {}) =>
      new Promise<boolean>((resolve) => {
        const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setPending({
          message,
          wording,
          resolve: (confirmed) => {
            setPending(null);
            opener?.focus();
            resolve(confirmed);
          },
        });
      }),
    [],
  );

  const dialog = pending ? (
    <ConfirmDialog message={pending.message} wording={pending.wording} onClose={pending.resolve} />
  ) : null;
  return { confirm, dialog };
}

function ConfirmDialog({
  message,
  wording,
  onClose,
}: {
  message: string;
  wording: ConfirmWording;
  onClose: (confirmed: boolean) => void;
}) {
  const t = useT(common);
  const {
    title = t('common.confirm.title'),
    confirmLabel = t('common.confirm.delete'),
    cancelLabel = t('common.confirm.cancel'),
    tone = 'danger',
  } = wording;
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    cancelRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  return (
    <>
      <div
        className="modal d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onClick={(event) => {
          if (event.target === event.currentTarget) onClose(false);
        }}
      >
        <div className="modal-dialog modal-dialog-centered">
          <div className="modal-content">
            <div className="modal-header">
              <h2 className="modal-title fs-5" id={titleId}>
                {title}
              </h2>
            </div>
            <div className="modal-body" id={bodyId}>
              {message}
            </div>
            <div className="modal-footer">
              <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={() => onClose(false)}>
                {cancelLabel}
              </button>
              <button
                type="button"
                className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`}
                onClick={() => onClose(true)}
              >
                {confirmLabel}
              </button>
            </div>
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </>
  );
}
