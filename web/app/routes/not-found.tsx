import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';

export function Component() {
  return (
    <div className="text-center py-5">
      <PageTitle title="Error 404">Error 404</PageTitle>
      <p className="lead">Page not found.</p>
      <Link to="/" className="btn btn-primary">
        Go to the home page
      </Link>
    </div>
  );
}
