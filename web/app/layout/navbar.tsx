import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { can } from '../../../core/permissions.js';
import { Dropdown } from '../../components/dropdown';
import { useAppConfig } from '../../features/auth/api/get-app-config';
import { useUser } from '../../features/auth/api/get-me';

const navLinkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;

export function Navbar() {
  const user = useUser();
  // This product's source, when the server names it (SOURCE_URL or package.json): no link otherwise.
  const sourceUrl = useAppConfig().data?.source_url ?? null;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState(location.pathname);
  if (path !== location.pathname) {
    // Navigating closes the mobile menu.
    setPath(location.pathname);
    setOpen(false);
  }

  return (
    <header>
      <nav className="navbar navbar-expand-md navbar-dark bg-dark" aria-label="Main">
        <div className="container">
          <Link className="navbar-brand" to="/">
            Running Times
          </Link>
          <button
            className="navbar-toggler"
            type="button"
            aria-controls="main-navigation"
            aria-expanded={open}
            aria-label="Toggle navigation"
            onClick={() => setOpen((value) => !value)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div className={`collapse navbar-collapse${open ? ' show' : ''}`} id="main-navigation">
            <ul className="navbar-nav me-auto">
              {user ? (
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
              ) : null}
            </ul>
            <ul className="navbar-nav">
              {sourceUrl ? (
                <li className="nav-item">
                  <a className="nav-link" href={sourceUrl} rel="noopener noreferrer">
                    {new URL(sourceUrl).hostname === 'github.com' ? 'Source on GitHub' : 'Source code'}
                  </a>
                </li>
              ) : null}
              {user ? (
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
              ) : (
                <>
                  <li className="nav-item">
                    <NavLink className={navLinkClass} to="/login">
                      Login
                    </NavLink>
                  </li>
                  <li className="nav-item">
                    <NavLink className={navLinkClass} to="/register">
                      Register
                    </NavLink>
                  </li>
                </>
              )}
            </ul>
          </div>
        </div>
      </nav>
    </header>
  );
}
