import { NavLink, Outlet } from 'react-router';
import admin from 'virtual:i18n/admin';
import { can } from '../../../../core/permissions.js';
import { useUser } from '../../../features/auth/api/get-me';
import { useT } from '../../../i18n/runtime';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `list-group-item list-group-item-action${isActive ? ' active' : ''}`;

/** The admin panel: a side menu (Entries for admins only) beside the screen. */
export function Component() {
  const t = useT(admin);
  const user = useUser();
  return (
    <div className="row g-4">
      <aside className="col-md-3 col-lg-2">
        <nav aria-label={t('admin.panel')}>
          <div className="list-group">
            <NavLink to="/admin/dashboard" className={itemClass}>
              {t('admin.nav.dashboard')}
            </NavLink>
            <NavLink to="/admin/users" className={itemClass}>
              {t('admin.nav.users')}
            </NavLink>
            {can(user, { type: 'entry.listAll' }) ? (
              <NavLink to="/admin/entries" className={itemClass}>
                {t('admin.nav.entries')}
              </NavLink>
            ) : null}
          </div>
        </nav>
      </aside>
      <div className="col-md-9 col-lg-10">
        <Outlet />
      </div>
    </div>
  );
}
