import { Outlet } from 'react-router';
import { Analytics } from './Analytics.tsx';
import { ProgressBar } from './ProgressBar.tsx';

/** Wraps every route: the progress bar and the page-view tracker. */
export function Root() {
  return (
    <>
      <ProgressBar />
      <Analytics />
      <Outlet />
    </>
  );
}
