/** The admin side navigation: sections of links, in the order shown (labels in admin.json `nav`). */
export interface AdminNavItem {
  to: string;
  label: string;
  /** Only the exact address counts as this page (the overview at /admin). */
  end?: boolean;
}

export const ADMIN_NAV: { section: string; items: AdminNavItem[] }[] = [
  {
    section: 'nav.section_basic',
    items: [
      { to: '/admin', label: 'nav.overview', end: true },
      { to: '/admin/settings', label: 'nav.settings' },
      { to: '/admin/api', label: 'nav.api' },
    ],
  },
  {
    section: 'nav.section_management',
    items: [
      { to: '/admin/servers', label: 'nav.servers' },
      { to: '/admin/users', label: 'nav.users' },
      { to: '/admin/nodes', label: 'nav.nodes' },
      { to: '/admin/locations', label: 'nav.locations' },
      { to: '/admin/databases', label: 'nav.databases' },
    ],
  },
  {
    section: 'nav.section_service',
    items: [{ to: '/admin/nests', label: 'nav.nests' }],
  },
];

/** The nav item the address belongs to (longest matching prefix), for the phone menu's button. */
export function currentNavItem(pathname: string): AdminNavItem | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  let best: AdminNavItem | undefined;
  for (const { items } of ADMIN_NAV) {
    for (const item of items) {
      const match = item.end ? path === item.to : path === item.to || path.startsWith(`${item.to}/`);
      if (match && (!best || item.to.length > best.to.length)) best = item;
    }
  }
  return best;
}
