/**
 * The menus of a signed-in runner (navbar.tsx loads them lazily, once there is a session): the
 * runner's screens, Reports and Insights, the admin panel for staff, and the account's menu.
 */
import { Link, NavLink } from 'react-router';
import { can } from '../../../core/permissions.js';
import type { User } from '../../../core/schemas.js';
import menus from 'virtual:i18n/menus';
import { Dropdown } from '../../components/dropdown';
import { useT } from '../../i18n/runtime';
import { navLinkClass } from './nav-link-class';

export function RunnerLinks({ user }: { user: User }) {
  const t = useT(menus);
  return (
    <>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/dashboard">
          {t('menus.dashboard')}
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/entries" end={false}>
          {t('menus.entries')}
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/goals">
          {t('menus.goals')}
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/shoes">
          {t('menus.shoes')}
        </NavLink>
      </li>
      <Dropdown label={t('menus.reports')}>
        <li>
          <Link className="dropdown-item" to="/report/weekly">
            {t('menus.weekly')}
          </Link>
        </li>
      </Dropdown>
      <Dropdown label={t('menus.insights')}>
        <li>
          <Link className="dropdown-item" to="/insights/records">
            {t('menus.records')}
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/load">
            {t('menus.trainingLoad')}
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/year">
            {t('menus.year')}
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/map">
            {t('menus.map')}
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/routes">
            {t('menus.routes')}
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/segments">
            {t('menus.segments')}
          </Link>
        </li>
      </Dropdown>
      {can(user, { type: 'admin.panel' }) ? (
        <li className="nav-item">
          <NavLink className={navLinkClass} to="/admin">
            {t('menus.adminPanel')}
          </NavLink>
        </li>
      ) : null}
    </>
  );
}

export function AccountMenu({ user }: { user: User }) {
  const t = useT(menus);
  return (
    <Dropdown label={<span translate="no">{user.name}</span>} align="end">
      <li>
        <Link className="dropdown-item" to="/profile">
          {t('menus.profile')}
        </Link>
      </li>
      <li>
        <Link className="dropdown-item" to="/data">
          {t('menus.yourData')}
        </Link>
      </li>
      <li>
        <Link className="dropdown-item" to="/logout">
          {t('menus.logout')}
        </Link>
      </li>
    </Dropdown>
  );
}
