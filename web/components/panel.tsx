import { useId, type ReactNode } from 'react';

/** A titled card, the "panel" of the screens (This week, Best results, ...). */
export function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={`card mb-4 ${className}`} aria-labelledby={id}>
      <div className="card-header">
        <h2 id={id} className="h6 mb-0">
          {title}
        </h2>
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}
