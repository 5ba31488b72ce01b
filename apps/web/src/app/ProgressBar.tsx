import { useEffect } from 'react';
import { continuousStep, PROGRESS_CLEAR_MS, PROGRESS_TICK_MS } from '../lib/progress.ts';
import { useGlobalStore } from './store.ts';

/** The thin bar at the top of the page (spec §2, §4). */
export function ProgressBar() {
  const progress = useGlobalStore((s) => s.progress);
  const continuous = useGlobalStore((s) => s.progressContinuous);
  const setProgress = useGlobalStore((s) => s.setProgress);

  useEffect(() => {
    if (!continuous) return;
    const timer = setInterval(() => {
      setProgress(continuousStep(useGlobalStore.getState().progress ?? 0));
    }, PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [continuous, setProgress]);

  useEffect(() => {
    if (progress !== 100) return;
    const timer = setTimeout(() => setProgress(undefined), PROGRESS_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [progress, setProgress]);

  return (
    <div className="pointer-events-none fixed inset-x-0 top-0 z-[70] h-[3px]" aria-hidden="true">
      <div
        data-testid="progress-bar"
        data-progress={progress ?? ''}
        className="h-full bg-sky-400 shadow-[0_0_8px_#38bdf8] transition-all duration-150 ease-linear"
        style={{
          width: progress === undefined ? '0%' : `${progress}%`,
          opacity: progress === undefined ? 0 : 1,
        }}
      />
    </div>
  );
}
