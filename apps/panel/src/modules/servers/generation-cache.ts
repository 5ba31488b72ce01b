/**
 * Values built from the database, reused while its `server_list` generation (bumped by triggers on
 * every table a server's list entry or access reads, migration 0004) is unchanged. The triggers see
 * writes from every panel sharing the database, so a reused value is never stale. Callers read the
 * generation before the rows, so a value is never stored under a generation newer than its data.
 * Least recently used entries go first beyond `maxEntries` or `maxBytes` (as `sizeOf` counts).
 * Values are shared by every request that reuses them: callers must not change them.
 */
export class GenerationCache<V> {
  private readonly entries = new Map<string, { generation: number; value: V; size: number }>();
  private bytes = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes?: number; sizeOf?: (value: V) => number },
  ) {}

  get(key: string, generation: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.delete(key);
    if (entry.generation !== generation) return undefined;
    this.insert(key, entry); // most recently used last
    return entry.value;
  }

  set(key: string, generation: number, value: V): void {
    this.delete(key);
    const size = this.limits.sizeOf?.(value) ?? 0;
    const maxBytes = this.limits.maxBytes ?? Infinity;
    if (size > maxBytes / 4) return; // one huge value must not evict everything
    this.insert(key, { generation, value, size });
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= maxBytes) break;
      this.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private insert(key: string, entry: { generation: number; value: V; size: number }) {
    this.entries.set(key, entry);
    this.bytes += entry.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
