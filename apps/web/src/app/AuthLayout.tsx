import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { CenteredSpinner } from '../components/Spinner.tsx';
import { Footer } from './Footer.tsx';
import { useGlobalStore } from './store.ts';

/** The sign-in screens: the site name above a centred card. */
export function AuthLayout() {
  const name = useGlobalStore((s) => s.settings.name);
  return (
    <div className="flex min-h-screen flex-col items-center px-4 pt-12 sm:pt-24">
      <p className="mb-6 text-3xl font-bold tracking-tight text-zinc-100">{name}</p>
      <main className="w-full max-w-md flex-1">
        <Suspense fallback={<CenteredSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
