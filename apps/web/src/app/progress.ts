import { continuousStart, tracksProgress } from '../lib/progress.ts';
import { useGlobalStore } from './store.ts';

/** A request began: enter continuous mode at 20–30 (unless a /resources poll). */
export function progressRequestStarted(url: string): void {
  if (!tracksProgress(url)) return;
  const s = useGlobalStore.getState();
  if (!s.progressContinuous) s.setProgress(continuousStart());
  s.setProgressContinuous(true);
}

/** A response or an error arrived: jump to 100; the bar clears itself 500 ms later. */
export function progressRequestEnded(url: string): void {
  if (!tracksProgress(url)) return;
  const s = useGlobalStore.getState();
  s.setProgressContinuous(false);
  s.setProgress(100);
}
