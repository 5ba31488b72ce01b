import { Worker } from 'node:worker_threads';
import type { TransformJob, TransformResult } from './transform.ts';

/**
 * Configuration files are parsed off the daemon's event loop (CVE-2026-52857 class): the files
 * belong to the server, so one crafted to take long or much memory must cost a worker thread that
 * is stopped, never the daemon (every other server on the node) itself.
 */
export interface ParserLimits {
  /** Most milliseconds one file's rewrite may run; the worker is terminated after that. */
  budgetMs: number;
  /** Heap (V8 old generation) of a worker, MiB; a rewrite needing more ends the worker. */
  heapMb: number;
}

export const DEFAULT_PARSER_LIMITS: ParserLimits = { budgetMs: 10_000, heapMb: 256 };

/** Workers running at once, daemon-wide: more files wait their turn (memory stays bounded). */
const POOL_SIZE = 2;
/** An idle worker is kept this long for the next start, then ended. */
const IDLE_MS = 60_000;
/** Loading a worker (modules, and compiling the sources when not built) may take this long. */
const LOAD_MS = 60_000;

export type ParseOutcome =
  | TransformResult
  | { ok: false; limit: 'budget' | 'memory'; message: string };

/**
 * Built (apps/daemon/dist/main.js): the worker is its own bundle beside it. From the TypeScript
 * sources (tests, development): a CommonJS bootstrap registers tsx in the worker, then imports the
 * entry (a worker does not inherit the loader hooks of the thread that made it).
 */
const BUILT = !import.meta.url.endsWith('.ts');
const TSX_BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;

function spawnWorker(limits: ParserLimits): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } };
  const worker = BUILT
    ? new Worker(new URL('./config-files-worker.js', import.meta.url), options)
    : new Worker(TSX_BOOT, {
        ...options,
        eval: true,
        workerData: {
          tsx: import.meta.resolve('tsx/esm/api'),
          entry: new URL('./worker.ts', import.meta.url).href,
        },
      });
  // Failures are read while a job runs (nextMessage); an unobserved one must not crash the daemon.
  worker.on('error', () => undefined);
  return worker;
}

/** The next message of `worker`, or why there is none (it failed, exited, or ran out of time). */
function nextMessage(worker: Worker, ms: number): Promise<{ message: unknown } | { failure: Error | 'time' }> {
  return new Promise((resolve) => {
    const done = (v: { message: unknown } | { failure: Error | 'time' }): void => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      resolve(v);
    };
    const onMessage = (message: unknown): void => done({ message });
    const onError = (err: Error): void => done({ failure: err });
    const onExit = (code: number): void => done({ failure: new Error(`the parser worker exited (${code})`) });
    const timer = setTimeout(() => done({ failure: 'time' }), ms);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** A few parser workers, reused between starts, each job within the limits. */
export class ParserPool {
  private readonly idle: { worker: Worker; timer: NodeJS.Timeout; onExit: () => void }[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limits: ParserLimits = DEFAULT_PARSER_LIMITS,
    private readonly size = POOL_SIZE,
  ) {}

  async run(job: TransformJob): Promise<ParseOutcome> {
    if (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await this.runOnWorker(job);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Ends the idle workers (busy ones end with their job). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(
      idle.map(({ worker, timer, onExit }) => {
        clearTimeout(timer);
        worker.off('exit', onExit);
        return worker.terminate();
      }),
    );
  }

  private async take(): Promise<Worker | Error> {
    const kept = this.idle.pop();
    if (kept) {
      clearTimeout(kept.timer);
      kept.worker.off('exit', kept.onExit);
      kept.worker.ref();
      return kept.worker;
    }
    const worker = spawnWorker(this.limits);
    const loaded = await nextMessage(worker, LOAD_MS);
    if ('message' in loaded && loaded.message === 'ready') return worker;
    void worker.terminate();
    return 'failure' in loaded && loaded.failure !== 'time'
      ? loaded.failure
      : new Error('the parser worker did not load');
  }

  private keep(worker: Worker): void {
    worker.unref(); // an idle worker never keeps the daemon's process alive
    const drop = (): void => {
      const at = this.idle.indexOf(entry);
      if (at >= 0) this.idle.splice(at, 1);
    };
    const entry = {
      worker,
      timer: setTimeout(() => {
        drop();
        void worker.terminate();
      }, IDLE_MS).unref(),
      onExit: drop, // a worker gone while idle is not handed a job
    };
    worker.once('exit', entry.onExit);
    this.idle.push(entry);
  }

  private async runOnWorker(job: TransformJob): Promise<ParseOutcome> {
    const worker = await this.take();
    if (worker instanceof Error) return { ok: false, message: worker.message };
    worker.postMessage(job);
    const answer = await nextMessage(worker, this.limits.budgetMs);
    if ('message' in answer) {
      this.keep(worker);
      return answer.message as TransformResult;
    }
    void worker.terminate(); // also stops a rewrite still running
    const failure = answer.failure;
    if (failure === 'time') {
      return { ok: false, limit: 'budget', message: `took longer than ${this.limits.budgetMs} ms` };
    }
    if ((failure as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return { ok: false, limit: 'memory', message: `needed more than ${this.limits.heapMb} MiB` };
    }
    return { ok: false, message: failure.message };
  }
}

let shared: ParserPool | undefined;

/** The daemon's pool (one per process: the limits are per node, not per server). */
export function sharedParserPool(): ParserPool {
  shared ??= new ParserPool();
  return shared;
}
