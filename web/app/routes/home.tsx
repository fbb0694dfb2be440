import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';

export function Component() {
  const user = useUser();
  return (
    <>
      <section className="p-4 p-md-5 mb-4 bg-body-tertiary rounded-3">
        <PageTitle title="Home">Running Times</PageTitle>
        <p className="lead col-md-9">
          Your running log. Record each run with its date, distance and time, and Running Times works out your speed and
          pace, sums up your week and charts your progress.
        </p>
        <div className="d-flex flex-wrap gap-2">
          {user ? (
            <Link to="/dashboard" className="btn btn-primary btn-lg">
              Go to your dashboard
            </Link>
          ) : (
            <>
              <Link to="/register" className="btn btn-primary btn-lg">
                Register
              </Link>
              <Link to="/login" className="btn btn-outline-dark btn-lg">
                Login
              </Link>
            </>
          )}
        </div>
      </section>
      <div className="row g-4">
        <section className="col-md-4">
          <h2 className="h5">Log every run</h2>
          <p>Date, distance in kilometres and time. Edit or delete a run at any time and filter your list by date.</p>
        </section>
        <section className="col-md-4">
          <h2 className="h5">See speed and pace</h2>
          <p>
            Each run shows its average speed (km/h) and pace (min/km). The dashboard shows this week, your best results
            and a chart of the last two weeks.
          </p>
        </section>
        <section className="col-md-4">
          <h2 className="h5">Follow your weeks</h2>
          <p>The weekly report gives average speed and distance for every week of the year, as a table and a chart.</p>
        </section>
      </div>
    </>
  );
}
