import { useEffect, type ReactNode } from 'react';

/** The page's single h1; also sets the document title. */
export function PageTitle({ children, title, actions }: { children: ReactNode; title: string; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Running Times`;
  }, [title]);
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 className="h3 mb-0">{children}</h1>
      {actions ? <div className="d-flex gap-2">{actions}</div> : null}
    </div>
  );
}
