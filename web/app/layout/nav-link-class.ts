/** Bootstrap's nav link, marked active on its own route (NavLink's className callback). */
export const navLinkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;
