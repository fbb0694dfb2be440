/**
 * The menus of a signed-in runner (navbar.tsx loads them lazily, once there is a session): the
 * runner's screens, Reports and Insights, the admin panel for staff, and the account's menu.
 */
import { Link, NavLink } from 'react-router';
import { can } from '../../../core/permissions.js';
import type { User } from '../../../core/schemas.js';
import { Dropdown } from '../../components/dropdown';
import { navLinkClass } from './nav-link-class';

export function RunnerLinks({ user }: { user: User }) {
  return (
    <>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/dashboard">
          Dashboard
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/entries" end={false}>
          Entries
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/goals">
          Goals
        </NavLink>
      </li>
      <li className="nav-item">
        <NavLink className={navLinkClass} to="/shoes">
          Shoes
        </NavLink>
      </li>
      <Dropdown label="Reports">
        <li>
          <Link className="dropdown-item" to="/report/weekly">
            Weekly
          </Link>
        </li>
      </Dropdown>
      <Dropdown label="Insights">
        <li>
          <Link className="dropdown-item" to="/insights/records">
            Records
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/load">
            Training load
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/year">
            Year
          </Link>
        </li>
        <li>
          <Link className="dropdown-item" to="/insights/map">
            Map
          </Link>
        </li>
      </Dropdown>
      {can(user, { type: 'admin.panel' }) ? (
        <li className="nav-item">
          <NavLink className={navLinkClass} to="/admin">
            Admin Panel
          </NavLink>
        </li>
      ) : null}
    </>
  );
}

export function AccountMenu({ user }: { user: User }) {
  return (
    <Dropdown label={user.name} align="end">
      <li>
        <Link className="dropdown-item" to="/profile">
          Profile
        </Link>
      </li>
      <li>
        <Link className="dropdown-item" to="/data">
          Your data
        </Link>
      </li>
      <li>
        <Link className="dropdown-item" to="/logout">
          Logout
        </Link>
      </li>
    </Dropdown>
  );
}
