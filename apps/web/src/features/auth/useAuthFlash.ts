import { useGlobalStore } from '../../app/store.ts';

/** Auth screens show one message at a time, without a key. */
export function showAuthFlash(type: 'error' | 'success', title: string, message: string): void {
  const s = useGlobalStore.getState();
  s.clearFlashes();
  s.addFlash({ type, title, message });
}
