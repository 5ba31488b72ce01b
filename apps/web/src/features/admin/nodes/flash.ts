import { useGlobalStore } from '../../../app/store.ts';
import { ADMIN_FLASH } from '../components/index.ts';

/** Replaces the admin page's messages with one. */
export function flashNodes(type: 'success' | 'warning' | 'error', message: string) {
  const store = useGlobalStore.getState();
  store.clearFlashes(ADMIN_FLASH);
  store.addFlash({ key: ADMIN_FLASH, type, message });
}
