import { useId, type ReactNode } from 'react';

/**
 * A titled card, the "panel" of the screens (This week, Best results, My shoes, ...). `flush`
 * leaves out the card body, for content that brings its own (a flush list group).
 */
export function Panel({
  title,
  children,
  className = '',
  flush = false,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  flush?: boolean;
}) {
  const id = useId();
  return (
    <section className={`card mb-4 ${className}`} aria-labelledby={id}>
      <div className="card-header">
        <h2 id={id} className="h6 mb-0">
          {title}
        </h2>
      </div>
      {flush ? children : <div className="card-body">{children}</div>}
    </section>
  );
}
