import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { getAccountPermissions } from '../api/account.ts';
import { CenteredSpinner } from '../components/Spinner.tsx';
import { signInPathFor } from './signInPath.ts';
import { Footer } from './Footer.tsx';
import { TopBar } from './TopBar.tsx';
import { queryClient } from './queryClient.ts';
import { useGlobalStore } from './store.ts';

/**
 * The signed-in area: top bar, page, footer. Without a signed-in user: the login page, which returns
 * here once signed in.
 */
export function SignedInLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInShell />
    </QueryClientProvider>
  );
}

function SignedInShell() {
  const user = useGlobalStore((s) => s.user);
  const location = useLocation();
  const setPermissions = useGlobalStore((s) => s.setPermissions);
  const permissions = useQuery({
    queryKey: ['account', 'permissions'],
    queryFn: getAccountPermissions,
    enabled: user !== null,
  });

  useEffect(() => {
    if (permissions.data) setPermissions(permissions.data);
  }, [permissions.data, setPermissions]);

  if (!user) return <Navigate to={signInPathFor(location)} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="flex flex-1 flex-col">
        <Suspense fallback={<CenteredSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
