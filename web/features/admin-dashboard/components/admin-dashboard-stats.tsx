import type { ReactNode } from 'react';
import { Link } from 'react-router';
import admin from 'virtual:i18n/admin';
import { formatNumber } from '../../../../core/format.js';
import { can } from '../../../../core/permissions.js';
import type { EntryWithUser, User } from '../../../../core/schemas.js';
import { Panel } from '../../../components/panel';
import { splitAround, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runEditPath } from '../../../lib/run-paths';
import { useAdminDashboard } from '../api/get-admin-dashboard';

/** Where a run can be edited by this viewer (SPEC §2): their own edit screen, the admin one, or nowhere. */
function editPathFor(me: User, run: EntryWithUser): string | null {
  if (run.user_id === me.id) return runEditPath(run.id, 'own');
  if (can(me, { type: 'entry.listAll' }) && can(me, { type: 'entry.manage', ownerId: run.user_id })) {
    return runEditPath(run.id, 'admin');
  }
  return null;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-7 fw-normal">{label}</dt>
      <dd className="col-5 fw-semibold text-end">{children}</dd>
    </>
  );
}

function RunLine({ me, run, value }: { me: User; run: EntryWithUser | null; value: string }) {
  const t = useT(admin);
  const display = useDisplay();
  if (!run) return <>—</>;
  const path = editPathFor(me, run);
  const date = display.formatDate(run.date);
  const [beforeUser, afterUser] = splitAround(
    (key, values) => t(key, { ...values, date }),
    'admin.dashboard.runBy',
    'user',
  );
  return (
    <>
      {path ? <Link to={path}>{value}</Link> : value}
      <span className="d-block small fw-normal">
        {beforeUser}
        <Link to={`/admin/user/show/${run.user.id}`} translate="no">
          {run.user.name}
        </Link>
        {afterUser}
      </span>
    </>
  );
}

export function AdminDashboardStats({ me }: { me: User }) {
  const t = useT(admin);
  const { data } = useAdminDashboard();
  const count = (value: number | undefined) => (value === undefined ? '—' : String(value));
  const display = useDisplay();
  return (
    <div className="row">
      <div className="col-lg-6">
        <Panel title={t('admin.dashboard.usersStats')}>
          <dl className="row mb-0">
            <Row label={t('admin.dashboard.totalUsers')}>{count(data?.total_users)}</Row>
            <Row label={t('admin.dashboard.newUsersThisWeek')}>{count(data?.new_users_this_week)}</Row>
            <Row label={t('admin.dashboard.newUsersThisMonth')}>{count(data?.new_users_this_month)}</Row>
          </dl>
        </Panel>
      </div>
      <div className="col-lg-6">
        <Panel title={t('admin.dashboard.entriesStats')}>
          <dl className="row mb-0">
            <Row label={t('admin.dashboard.totalEntries')}>{count(data?.total_entries)}</Row>
            <Row label={t('admin.dashboard.avgEntriesPerUser')}>{formatNumber(data?.avg_entries_per_user)}</Row>
            <Row label={t('admin.dashboard.fastestRun')}>
              <RunLine
                me={me}
                run={data?.fastest_run ?? null}
                value={
                  data?.fastest_run ? `${display.formatSpeed(data.fastest_run.speed)} ${display.labels.speed}` : '—'
                }
              />
            </Row>
            <Row label={t('admin.dashboard.longestRun')}>
              <RunLine
                me={me}
                run={data?.longest_run ?? null}
                value={
                  data?.longest_run
                    ? `${display.runDistance(data.longest_run.distance)} ${display.labels.distance}`
                    : '—'
                }
              />
            </Row>
          </dl>
        </Panel>
      </div>
    </div>
  );
}
