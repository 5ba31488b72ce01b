/**
 * Serialised client server-list answers, reused while the database's `server_list` generation
 * (bumped by triggers on every table the list reads, migration 0004) is unchanged. Building the
 * answer (eight queries, then ~1.6 KB of JSON per server) is what a list request costs; a
 * reused answer costs one single-row query. Readers take the generation before reading the rows,
 * so an answer is never stored under a generation newer than its data.
 */
export class ServerListCache {
  private readonly entries = new Map<string, { generation: number; body: Buffer }>();
  private bytes = 0;

  constructor(private readonly limits = { maxEntries: 2000, maxBytes: 32 * 1024 * 1024 }) {}

  get(key: string, generation: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.delete(key);
    if (entry.generation !== generation) return undefined;
    this.insert(key, entry); // most recently used last
    return entry.body;
  }

  set(key: string, generation: number, body: Buffer): void {
    this.delete(key);
    if (body.length > this.limits.maxBytes / 4) return; // one huge answer must not evict everything
    this.insert(key, { generation, body });
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private insert(key: string, entry: { generation: number; body: Buffer }) {
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}
