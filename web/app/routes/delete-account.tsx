import { PageTitle } from '../../components/page-title';

export function Component() {
  return (
    <article className="col-lg-9">
      <PageTitle title="Account deletion">Account deletion</PageTitle>
      <p>
        This installation of Running Times is an education example. Accounts are not kept: all accounts and their runs
        are deleted automatically every day at 4am UTC.
      </p>
      <p>
        You do not need to ask for your account to be deleted; it will be gone after the next daily clean-up. Until then
        you can change your details on your profile page.
      </p>
    </article>
  );
}
