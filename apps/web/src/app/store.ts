import { create } from 'zustand';
import type { AccountUser, SiteSettings } from '../api/types.ts';
import { toAccountUser, toSiteSettings } from '../api/types.ts';

export type FlashType = 'error' | 'info' | 'success' | 'warning';

/** Flash message (spec §3). */
export interface FlashMessage {
  id: string;
  key?: string;
  type: FlashType;
  title?: string;
  message: string;
}

interface GlobalState {
  settings: SiteSettings;
  user: AccountUser | null;
  permissions: Record<string, unknown>;
  flashes: FlashMessage[];
  progress: number | undefined;
  progressContinuous: boolean;
  /** An API call answered TwoFactorAuthRequiredException (also when the server redirected). */
  twoFactorRequired: boolean;
  setTwoFactorRequired: (on: boolean) => void;
  setUser: (user: AccountUser | null) => void;
  updateUser: (patch: Partial<AccountUser>) => void;
  setPermissions: (permissions: Record<string, unknown>) => void;
  addFlash: (flash: Omit<FlashMessage, 'id'>) => void;
  clearFlashes: (key?: string) => void;
  setProgress: (value: number | undefined) => void;
  setProgressContinuous: (on: boolean) => void;
}

let flashCounter = 0;

export const useGlobalStore = create<GlobalState>((set) => ({
  settings: toSiteSettings(typeof window === 'undefined' ? undefined : window.SiteConfiguration),
  user:
    typeof window !== 'undefined' && window.PterodactylUser ? toAccountUser(window.PterodactylUser) : null,
  permissions: {},
  flashes: [],
  progress: undefined,
  progressContinuous: false,
  twoFactorRequired: false,
  setTwoFactorRequired: (twoFactorRequired) => set({ twoFactorRequired }),
  setUser: (user) => set({ user }),
  updateUser: (patch) => set((s) => ({ user: s.user ? { ...s.user, ...patch } : s.user })),
  setPermissions: (permissions) => set({ permissions }),
  addFlash: (flash) => set((s) => ({ flashes: [...s.flashes, { ...flash, id: `flash-${++flashCounter}` }] })),
  clearFlashes: (key) =>
    set((s) => ({ flashes: key === undefined ? [] : s.flashes.filter((f) => f.key !== key) })),
  setProgress: (progress) => set({ progress }),
  setProgressContinuous: (progressContinuous) => set({ progressContinuous }),
}));

/** Shorthand used by forms: clear a key's flashes, then show the error titled 'Error'. */
export function flashError(key: string, message: string): void {
  const s = useGlobalStore.getState();
  s.clearFlashes(key);
  s.addFlash({ key, type: 'error', title: 'Error', message });
}
