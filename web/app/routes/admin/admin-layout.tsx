import { NavLink, Outlet } from 'react-router';
import { can } from '../../../../core/permissions.js';
import { useUser } from '../../../features/auth/api/get-me';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `list-group-item list-group-item-action${isActive ? ' active' : ''}`;

/** The admin panel: a side menu (Entries for admins only) beside the screen. */
export function Component() {
  const user = useUser();
  return (
    <div className="row g-4">
      <aside className="col-md-3 col-lg-2">
        <nav aria-label="Admin panel">
          <div className="list-group">
            <NavLink to="/admin/dashboard" className={itemClass}>
              Dashboard
            </NavLink>
            <NavLink to="/admin/users" className={itemClass}>
              Users
            </NavLink>
            {can(user, { type: 'entry.listAll' }) ? (
              <NavLink to="/admin/entries" className={itemClass}>
                Entries
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
