import { useEffect, type ReactNode } from 'react';
import { t } from '../i18n/runtime';

/** The page's single h1; also sets the document title (`title`, already in the app's language). */
export function PageTitle({ children, title, actions }: { children: ReactNode; title: string; actions?: ReactNode }) {
  useEffect(() => {
    document.title = t('shell.documentTitle', { title });
  }, [title]);
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 className="h3 mb-0">{children}</h1>
      {actions ? <div className="d-flex gap-2">{actions}</div> : null}
    </div>
  );
}
