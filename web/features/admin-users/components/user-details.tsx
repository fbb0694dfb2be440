import type { User } from '../../../../core/schemas.js';
import { ROLE_LABELS } from '../../../components/form/user-form';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';

export function UserDetails({ user }: { user: User }) {
  const display = useDisplay();
  return (
    <Panel title="User information">
      <dl className="row mb-0">
        <dt className="col-sm-3">Name</dt>
        <dd className="col-sm-9">{user.name}</dd>
        <dt className="col-sm-3">Email</dt>
        <dd className="col-sm-9 text-break">{user.email}</dd>
        <dt className="col-sm-3">Role</dt>
        <dd className="col-sm-9">{ROLE_LABELS[user.role]}</dd>
        <dt className="col-sm-3">Time zone</dt>
        <dd className="col-sm-9">{user.timezone}</dd>
        <dt className="col-sm-3">Created at</dt>
        <dd className="col-sm-9 mb-0">{display.formatDateTime(user.date)}</dd>
      </dl>
    </Panel>
  );
}
