import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title';

/** A route or segment that is not there (another runner's, deleted, a wrong address): what happened and the way back. */
export function MissingScreen({ title, body, back, to }: { title: string; body: ReactNode; back: string; to: string }) {
  return (
    <div className="py-4">
      <PageTitle title={title}>{title}</PageTitle>
      <p>{body}</p>
      <Link to={to} className="btn btn-primary">
        {back}
      </Link>
    </div>
  );
}
