import admin from 'virtual:i18n/admin';
import type { User } from '../../../../core/schemas.js';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';

export function UserDetails({ user }: { user: User }) {
  const t = useT(admin);
  const display = useDisplay();
  return (
    <Panel title={t('admin.user.information')}>
      <dl className="row mb-0">
        <dt className="col-sm-3">{t('admin.user.name')}</dt>
        <dd className="col-sm-9" translate="no">
          {user.name}
        </dd>
        <dt className="col-sm-3">{t('admin.user.email')}</dt>
        <dd className="col-sm-9 text-break" translate="no">
          {user.email}
        </dd>
        <dt className="col-sm-3">{t('admin.user.role')}</dt>
        <dd className="col-sm-9">{t('admin.user.roleName', { role: user.role })}</dd>
        <dt className="col-sm-3">{t('admin.user.timeZone')}</dt>
        <dd className="col-sm-9" translate="no">
          {user.timezone}
        </dd>
        <dt className="col-sm-3">{t('admin.user.createdAt')}</dt>
        <dd className="col-sm-9 mb-0">{display.formatDateTime(user.date)}</dd>
      </dl>
    </Panel>
  );
}
