import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useAppConfig } from '../../features/auth/api/get-app-config';
import { useUser } from '../../features/auth/api/get-me';

/** The demo's daily clean-up: nothing to ask for, every account goes. */
function DemoNotice() {
  return (
    <>
      <p>
        This installation of Running Times is an education example. Accounts are not kept: all accounts and their runs
        are deleted automatically every day at 4am UTC (04:00).
      </p>
      <p>
        You do not need to ask for your account to be deleted; it will be gone after the next daily clean-up. Until then
        you can change your details on your profile page.
      </p>
    </>
  );
}

/** How a runner deletes their own account, from their profile. */
function HowToDelete({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      <p>
        You can delete your account yourself at any time. Deleting it removes your account for good, with all your runs,
        shoes, goals and API tokens; it cannot be undone.
      </p>
      <ol>
        <li>
          {signedIn ? 'Open your profile.' : 'Log in and open your profile (the menu with your name, then Profile).'}
        </li>
        <li>Under &ldquo;Delete my account&rdquo;, type your e-mail address to confirm.</li>
        <li>Press &ldquo;Delete my account&rdquo;.</li>
      </ol>
      <p>If you want to keep your runs, export them first on the Your data page.</p>
      {signedIn ? (
        <Link to="/profile#delete-account" className="btn btn-danger">
          Delete my account
        </Link>
      ) : (
        <Link to="/login" className="btn btn-primary">
          Login
        </Link>
      )}
    </>
  );
}

export function Component() {
  const config = useAppConfig();
  const user = useUser();
  return (
    <article>
      <PageTitle title="Account deletion">Account deletion</PageTitle>
      {config.data ? config.data.demo_mode ? <DemoNotice /> : <HowToDelete signedIn={user !== null} /> : null}
    </article>
  );
}
