import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Server } from '../servers/server.ts';
import { archiveName, compress, decompress } from './archive.ts';
import { copyFile } from './copy.ts';
import { denylistFor, type FileDenylist } from './denylist.ts';
import { FileError } from './errors.ts';
import { Jail, checkMode, type Owner } from './jail.ts';
import type { FolderScope } from '@talon/shared/files/scope';
import { stagedKey } from './disk-usage.ts';
import { StagedFile } from './staged-file.ts';

/** The server's disk account: the cached usage and the daemon's own changes between walks. */
export interface DiskAccount {
  current(): Promise<number>;
  /** The usage at this moment, without waiting (call `current()` first for a fresh value). */
  now(): number;
  adjust(deltaBytes: number): void;
  /** Count `deltaBytes` more for the staged file `key`, which the disk-usage walk leaves out. */
  hold(key: string, deltaBytes: number): void;
  /** Stop counting the staged file `key` (in place, where the walk counts it, or removed). */
  release(key: string): void;
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
 * file routes, uploads and SFTP call the same methods; the routes keep only their protocol): the
 * egg's file denylist (protocol §8.8) for every file written (SFTP, `files/write`, uploads, copies
 * and their names, archives and extracted entries) and both names of a rename; no setuid/setgid
 * bits; the disk quota; the server's disk account kept up to date. A missing source is
 * `false`/`null` here; each protocol says what that means to its clients.
 */
export class ServerFiles {
  constructor(private readonly o: ServerFilesOptions) {}

  get jail(): Jail {
    return this.o.jail;
  }

  /** The cleaned components of `userPath`, refused (`denylist`) when the egg denies them. */
  private allowed(userPath: string): string[] {
    const parts = this.o.jail.parts(userPath);
    this.admit(parts);
    return parts;
  }

  /** Refuse (`denylist`) cleaned components the egg denies. */
  private admit(parts: readonly string[]): void {
    if (this.o.denylist().denies(parts)) throw new FileError('denylist', parts.join('/'));
  }

  /** Refuse now when the denylist has `userPath` (to check a whole request before changing anything). */
  checkAllowed(...userPaths: string[]): void {
    for (const p of userPaths) this.allowed(p);
  }

  /** Bytes the server may still write, or null without a limit. */
  private async room(): Promise<number | null> {
    const limit = this.o.limitBytes();
    if (limit <= 0) return null;
    return Math.max(0, limit - (await this.o.disk.current()));
  }

  /**
   * The quota rule for every write that adds bytes (uploads, SFTP writes, extraction): `bytes` more
   * must fit under the limit, and they are counted (`count`) in the same step as the check, with no
   * wait between. Writes checked at the same moment are thus decided one after the other, each
   * seeing the others' bytes; checked against one shared total they could each pass and together
   * cross the limit (CVE-2026-61617).
   */
  private async take(bytes: number, count: (n: number) => void, what: string): Promise<void> {
    const limit = this.o.limitBytes();
    if (limit > 0) {
      await this.o.disk.current(); // a walk when the cache is stale
      if (this.o.disk.now() + bytes > limit) throw new FileError('no_space', what);
    }
    count(bytes);
  }

  /** Whether the server uses more than its limit already. */
  async overQuota(): Promise<boolean> {
    return this.over(0);
  }

  /** Whether `delta` more bytes pass the limit (`full`: also when the usage is at the limit already). */
  private async over(delta: number, full = false): Promise<boolean> {
    const limit = this.o.limitBytes();
    if (limit <= 0) return false;
    const after = (await this.o.disk.current()) + delta;
    return full ? after >= limit : after > limit;
  }

  /**
   * Start writing `userPath` in pieces (an upload, an editor save): the bytes go to a temporary
   * file beside it and take its name only at `commit`. With the `size` announced, a write that
   * cannot fit is refused before anything is created (not even missing parents); either way each
   * piece is checked against the quota as it arrives. The staged file counts as what it will add:
   * its bytes less the size of the file it replaces.
   */
  async stage(userPath: string, size?: number): Promise<StagedWrite> {
    const parts = this.allowed(userPath);
    if (size !== undefined) {
      const before = await this.o.jail.lstat(userPath);
      if (await this.over(size - (before?.isFile() ? before.size : 0)))
        throw new FileError('no_space', `${size} bytes for ${userPath}`);
    }
    const file = await StagedFile.create(this.o.jail, parts);
    this.o.disk.hold(file.key, -file.replaces);
    return new StagedWrite(
      file,
      this.o.disk,
      (delta) => this.over(delta),
      (n, what) => this.take(n, (d) => this.o.disk.hold(file.key, d), what),
      userPath,
    );
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
    await this.take(bytes, (n) => this.o.disk.adjust(n), `${bytes} more bytes`);
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

  /**
   * Copy a regular file next to itself (quota). The denylist applies to the source and to the
   * copy's name (Wings checks only the source: `!server.jar` after `*.jar` would let a copy make
   * `server copy.jar`).
   */
  async copy(userPath: string): Promise<{ name: string; size: number }> {
    const parts = this.allowed(userPath);
    const out = await copyFile(
      this.o.jail,
      parts,
      async (n) => {
        if (await this.over(n)) throw new FileError('no_space', `copy of ${userPath}`);
      },
      (p) => this.admit(p),
    );
    this.o.disk.adjust(out.size);
    return out;
  }

  /**
   * A tar.gz of `list` (relative to `root`) written into `root` as `archive-<time>.tar.gz`: staged
   * like an upload (its bytes count against the quota as they are written, it takes its name only
   * when complete, and a walk meanwhile does not count it twice).
   */
  async compress(root: string, list: readonly string[]): Promise<{ name: string; stat: Stats }> {
    const rootParts = this.o.jail.parts(root);
    const name = archiveName();
    const target = [...rootParts, name].join('/');
    // A new file only: a second archive within the same second does not replace the first.
    if (await this.o.jail.lstat(target)) throw new FileError('exists', target);
    const staged = await this.stage(target);
    try {
      await compress(this.o.jail, rootParts, list, 1, staged);
      await staged.commit();
    } finally {
      await staged.discard();
    }
    const stat = await this.o.jail.lstat(target);
    if (!stat) throw new FileError('not_found', `${target} removed meanwhile`);
    return { name, stat };
  }

  /**
   * Extract the archive `file` into `root` (`fs/archive.ts`): denylisted entries are skipped, the
   * whole archive must fit the quota left and the node's decompression limits.
   */
  async decompress(
    root: string,
    file: string,
    limits: { maxBytes: number; maxEntries: number },
  ): Promise<void> {
    const jail = this.o.jail;
    await decompress(jail, jail.parts(root), jail.parts(file), {
      denylist: this.o.denylist(),
      room: await this.room(),
      ...limits,
      // Counted as each piece is written (as SFTP's `reserve`), so a walk meanwhile and the
      // account agree; a replaced file's bytes are freed when it is removed.
      account: async (delta) => {
        if (delta > 0) await this.reserve(delta);
        else this.o.disk.adjust(delta);
      },
    });
  }
}

/**
 * A file being written through `ServerFiles.stage`. Each piece is checked against the quota and
 * counted in the disk account before it is written; `commit` puts the file in place and moves its
 * bytes from the staged count to the account; `discard` (call it on every failure) removes it.
 */
export class StagedWrite {
  constructor(
    private readonly file: StagedFile,
    private readonly disk: DiskAccount,
    private readonly over: (delta: number) => Promise<boolean>,
    /** `ServerFiles.take` for this file: check and hold more bytes in one step. */
    private readonly take: (bytes: number, what: string) => Promise<void>,
    private readonly what: string,
  ) {}

  /** Bytes written so far. */
  get size(): number {
    return this.file.size;
  }

  /** The path inside the server the file takes on commit, as the caller gave it. */
  get path(): string {
    return this.what;
  }

  async write(chunk: Uint8Array): Promise<void> {
    await this.take(chunk.length, `${this.what}: ${chunk.length} more bytes`);
    await this.file.write(chunk);
  }

  /** Whether `st` is this file (the disk-usage walk's view of it). */
  isSelf(st: Stats): boolean {
    return stagedKey(st) === this.file.key;
  }

  /** All bytes are written (no descriptor is held until `commit`). */
  close(): Promise<void> {
    return this.file.close();
  }

  /**
   * Rename into place. It was counted as replacing the file the target held when the staging
   * began; the target is looked at again here, and the quota must hold with what it has now.
   */
  async commit(): Promise<void> {
    const size = this.file.size;
    try {
      const { oldSize } = await this.file.commit(async (old) => {
        if (await this.over(this.file.replaces - old))
          throw new FileError('no_space', `${this.what}: ${size} bytes`);
      });
      this.disk.adjust(size - oldSize);
    } finally {
      // Right after the adjustment, with no wait between: the bytes move from the staged count to
      // the account at once. After a failure the temporary file is gone, and so is its count.
      this.disk.release(this.file.key);
    }
  }

  async discard(): Promise<void> {
    await this.file.discard();
    this.disk.release(this.file.key);
  }
}

const MIB = 1024 * 1024;

/** Who owns what the daemon creates: the runtime user when the daemon runs as root, else nobody changes. */
export function runtimeOwner(runtime: { uid: number; gid: number }): Owner | null {
  return process.getuid?.() === 0 ? { uid: runtime.uid, gid: runtime.gid } : null;
}

/**
 * A server's files with its current egg denylist, disk account and limit; `scope` limits where
 * symlinks may lead (a folder-scoped subuser's folders, see `Jail`).
 */
export function filesOf(server: Server, owner: Owner | null, scope: FolderScope = null): ServerFiles {
  return new ServerFiles({
    jail: new Jail(server.dir, owner, scope),
    denylist: () => denylistFor(server.config.settings.egg?.file_denylist),
    disk: server.disk,
    limitBytes: () => server.config.settings.build.disk_space * MIB,
  });
}
