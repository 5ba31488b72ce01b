import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './index.css';
import { ErrorBoundary } from './app/ErrorBoundary.tsx';
import { installHttpHooks } from './app/httpHooks.ts';
import { createAppRouter } from './app/router.tsx';
import { useGlobalStore } from './app/store.ts';
import { CenteredSpinner } from './components/Spinner.tsx';
import { initI18n } from './lib/i18n.ts';

async function start() {
  const { user, settings } = useGlobalStore.getState();
  await initI18n(user?.language || settings.locale || 'en');
  const router = createAppRouter();
  installHttpHooks((to, options) => void router.navigate(to, options));
  createRoot(document.getElementById('app')!).render(
    <StrictMode>
      <ErrorBoundary>
        <Suspense fallback={<CenteredSpinner />}>
          <RouterProvider router={router} />
        </Suspense>
      </ErrorBoundary>
    </StrictMode>,
  );
}

void start();
