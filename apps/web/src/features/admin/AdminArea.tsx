import { useRoutes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../../app/store.ts';
import { SignedInNotFound } from '../../app/SignedInNotFound.tsx';
import { AdminLayout } from './AdminLayout.tsx';
import { adminRoutes } from './routes.ts';

/**
 * /admin/*: root admins only. Anyone else gets the signed-in 404 page, as if the area did not
 * exist (the API refuses them too; this only spares them a broken screen).
 */
export function AdminArea() {
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  if (!rootAdmin) return <SignedInNotFound />;
  return <AdminScreens />;
}

function AdminScreens() {
  // Loads the admin texts before the first screen renders (the page suspends until then).
  useTranslation('admin');
  const element = useRoutes(adminRoutes);
  return <AdminLayout>{element}</AdminLayout>;
}
