import { create } from 'zustand';

/**
 * The selected entries of the file list (spec 001 §3 "selected files"), by name. Kept beside the
 * page rather than in the server store: nothing else reads it.
 */
interface SelectionState {
  selected: string[];
  toggle: (name: string) => void;
  setAll: (names: string[]) => void;
  clear: () => void;
}

export const useFileSelection = create<SelectionState>((set) => ({
  selected: [],
  toggle: (name) =>
    set((s) => ({
      selected: s.selected.includes(name) ? s.selected.filter((n) => n !== name) : [...s.selected, name],
    })),
  setAll: (selected) => set({ selected }),
  clear: () => set({ selected: [] }),
}));
