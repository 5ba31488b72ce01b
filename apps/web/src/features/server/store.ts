import { create } from 'zustand';
import type { Server } from '../../api/servers.ts';
import type { ServerSocket } from './socket.ts';

/** Live figures from the daemon's `stats` event. */
export interface LiveStats {
  memoryBytes: number;
  memoryLimitBytes: number;
  cpuAbsolute: number;
  diskBytes: number;
  rxBytes: number;
  txBytes: number;
  /** Milliseconds. */
  uptime: number;
}

/** Server store (spec 001 §3): one server at a time; leaving it clears everything. */
interface ServerState {
  server: Server | null;
  permissions: string[];
  isOwner: boolean;
  socket: ServerSocket | null;
  connected: boolean;
  socketError: boolean;
  /** Text shown when the credentials are refused for good (a jwt error we cannot fix). */
  socketFatal: string | null;
  powerState: string | null;
  stats: LiveStats | null;
  setServer: (server: Server, permissions: string[], isOwner: boolean) => void;
  patchServer: (patch: Partial<Server>) => void;
  setSocket: (socket: ServerSocket | null) => void;
  setConnection: (patch: Partial<Pick<ServerState, 'connected' | 'socketError' | 'socketFatal'>>) => void;
  setPowerState: (state: string) => void;
  setStats: (stats: LiveStats) => void;
  clear: () => void;
}

const EMPTY = {
  server: null,
  permissions: [],
  isOwner: false,
  socket: null,
  connected: false,
  socketError: false,
  socketFatal: null,
  powerState: null,
  stats: null,
};

export const useServerStore = create<ServerState>((set, get) => ({
  ...EMPTY,
  setServer: (server, permissions, isOwner) => set({ server, permissions, isOwner }),
  patchServer: (patch) => {
    const server = get().server;
    if (!server) return;
    const next = { ...server, ...patch };
    next.isInstalling = next.status === 'installing' || next.status === 'install_failed';
    set({ server: next });
  },
  setSocket: (socket) => set({ socket }),
  setConnection: (patch) => set(patch),
  setPowerState: (powerState) => set({ powerState }),
  setStats: (stats) => set({ stats }),
  clear: () => {
    get().socket?.close();
    set(EMPTY);
  },
}));

/** Conflict state (spec 001 §4): a status is set, or the server is being transferred. */
export function isInConflict(server: Pick<Server, 'status' | 'isTransferring'>): boolean {
  return server.status !== null || server.isTransferring;
}
