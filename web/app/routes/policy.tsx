import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';

export function Component() {
  return (
    <article>
      <PageTitle title="Privacy policy">Privacy policy</PageTitle>
      <p>
        Running Times keeps only what it needs to run your log: your name, your e-mail address, a hash of your password
        (never the password itself), your time zone and the runs you record (date, distance and time).
      </p>
      <h2 className="h5">How your data is used</h2>
      <p>
        Your data is used only to show you your runs and statistics. It is not sold, shared with third parties or used
        for advertising. The application loads nothing from other sites and sets no tracking cookies; your browser keeps
        only an access token in its local storage while you are logged in.
      </p>
      <h2 className="h5">Who can see it</h2>
      <p>
        You see your own runs. Managers and administrators of this service can see the list of users; administrators can
        also see and correct runs, for example to remove obvious mistakes.
      </p>
      <h2 className="h5">Children</h2>
      <p>
        Running Times is not directed at children: users under 13 are not served. If you are under 13, do not register.
      </p>
      <h2 className="h5">Deleting your data</h2>
      <p>
        Deleting an account removes the user together with all of their runs and access tokens. See also the notice on{' '}
        <Link to="/delete-account">account deletion</Link>.
      </p>
    </article>
  );
}
