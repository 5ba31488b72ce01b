import type { FileHandle } from 'node:fs/promises';
import { copyFile } from './copy.ts';
import type { Server } from '../servers/server.ts';
import { denylistFor, type FileDenylist } from './denylist.ts';
import { FileError } from './errors.ts';
import { Jail, checkMode, type Owner } from './jail.ts';

/** The server's disk account: the cached usage and the daemon's own changes between walks. */
export interface DiskAccount {
  current(): Promise<number>;
  adjust(deltaBytes: number): void;
}

export interface ServerFilesOptions {
  jail: Jail;
  /** The egg's denylist now (a sync may change it during an SFTP session). */
  denylist: () => FileDenylist;
  disk: DiskAccount;
  /** The disk limit in bytes now (0: unlimited); read at each call, the build may change. */
  limitBytes: () => number;
}

/**
 * The changes a user may make to a server's files, with their rules, for every way in (the HTTP
 * file routes and SFTP call the same methods): the egg's file denylist (protocol §8.8) for writes,
 * renames and copies; no setuid/setgid bits; the disk quota; the server's disk account kept up to
 * date. A missing source is `false`/`null` here; each protocol says what that means to its clients.
 */
export class ServerFiles {
  constructor(private readonly o: ServerFilesOptions) {}

  get jail(): Jail {
    return this.o.jail;
  }

  /** The cleaned components of `userPath`, refused (`denylist`) when the egg denies them. */
  private allowed(userPath: string): string[] {
    const parts = this.o.jail.parts(userPath);
    if (this.o.denylist().denies(parts)) throw new FileError('denylist', userPath);
    return parts;
  }

  /** Refuse now when the denylist has `userPath` (to check a whole request before changing anything). */
  checkAllowed(...userPaths: string[]): void {
    for (const p of userPaths) this.allowed(p);
  }

  /** Bytes the server may still write, or null without a limit. */
  async room(): Promise<number | null> {
    const limit = this.o.limitBytes();
    if (limit <= 0) return null;
    return Math.max(0, limit - (await this.o.disk.current()));
  }

  /** Whether `delta` more bytes pass the limit (`full`: also when the usage is at the limit already). */
  private async over(delta: number, full = false): Promise<boolean> {
    const limit = this.o.limitBytes();
    if (limit <= 0) return false;
    const after = (await this.o.disk.current()) + delta;
    return full ? after >= limit : after > limit;
  }

  /** Create or replace `userPath` with `data` (parents 0755, file 0644, owner set). */
  async write(userPath: string, data: Uint8Array): Promise<{ created: boolean }> {
    this.allowed(userPath);
    const { oldSize, created } = await this.o.jail.writeFile(userPath, data, async (old) => {
      if (await this.over(data.length - old))
        throw new FileError('no_space', `${data.length} bytes for ${userPath}`);
    });
    this.o.disk.adjust(data.length - oldSize);
    return { created };
  }

  /**
   * Create or truncate `userPath` and return it open for writing (the caller closes it); the
   * bytes written later are accounted with `reserve`. Refused when the server is already full.
   */
  async openWrite(userPath: string): Promise<{ handle: FileHandle; created: boolean }> {
    this.allowed(userPath);
    const { handle, oldSize, created } = await this.o.jail.openWrite(userPath, async () => {
      if (await this.over(0, true)) throw new FileError('no_space', userPath);
    });
    this.o.disk.adjust(-oldSize);
    return { handle, created };
  }

  /** Account for `bytes` more on disk, refused (`no_space`) beyond the limit. */
  async reserve(bytes: number): Promise<void> {
    if (bytes <= 0) return;
    if (await this.over(bytes)) throw new FileError('no_space', `${bytes} more bytes`);
    this.o.disk.adjust(bytes);
  }

  /** Create a directory and its missing parents. */
  async mkdir(userPath: string): Promise<void> {
    await this.o.jail.mkdirAll(userPath);
  }

  /**
   * Delete `userPath` (a directory with everything in it; a link as itself). No denylist check,
   * as in Wings. `kind` refuses the other kind. false when nothing was there.
   */
  async delete(userPath: string, kind: 'file' | 'directory' | 'any' = 'any'): Promise<boolean> {
    const r = await this.o.jail.removeTree(userPath, kind);
    if (!r) return false;
    this.o.disk.adjust(-r.freed);
    return true;
  }

  /** Rename (both names denylist-checked). false when the source is missing; an existing destination is `exists`. */
  async rename(from: string, to: string): Promise<boolean> {
    this.allowed(from);
    this.allowed(to);
    return this.o.jail.rename(from, to);
  }

  /** Permission bits of `userPath` (never through a link, never set-id). false when it is missing. */
  async chmod(userPath: string, mode: number): Promise<boolean> {
    checkMode(mode);
    return this.o.jail.chmod(userPath, mode);
  }

  /** Copy a regular file next to itself (denylist, quota). */
  async copy(userPath: string): Promise<{ name: string; size: number }> {
    const parts = this.allowed(userPath);
    const out = await copyFile(this.o.jail, parts, async (n) => {
      const room = await this.room();
      if (room !== null && n > room) throw new FileError('no_space', `copy of ${userPath}`);
    });
    this.o.disk.adjust(out.size);
    return out;
  }
}

const MIB = 1024 * 1024;

/** Who owns what the daemon creates: the runtime user when the daemon runs as root, else nobody changes. */
export function runtimeOwner(runtime: { uid: number; gid: number }): Owner | null {
  return process.getuid?.() === 0 ? { uid: runtime.uid, gid: runtime.gid } : null;
}

/** A server's files with its current egg denylist, disk account and limit. */
export function filesOf(server: Server, owner: Owner | null): ServerFiles {
  return new ServerFiles({
    jail: new Jail(server.dir, owner),
    denylist: () => denylistFor(server.config.settings.egg?.file_denylist),
    disk: server.disk,
    limitBytes: () => server.config.settings.build.disk_space * MIB,
  });
}
