import type Dockerode from 'dockerode';
import type { ProcessSample } from '../driver.ts';

/** The fields of one frame of Docker's stats stream that a sample needs (cgroup v1 and v2). */
interface StatsFrame {
  cpu_stats?: { cpu_usage?: { total_usage?: number } };
  memory_stats?: {
    usage?: number;
    stats?: { total_inactive_file?: number; inactive_file?: number };
  };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
}

/** One stats frame as a sample: memory without the reclaimable page cache, as `docker stats` shows it. */
export function sampleOf(frame: StatsFrame): ProcessSample {
  const memory = frame.memory_stats ?? {};
  const usage = memory.usage ?? 0;
  const inactive = memory.stats?.total_inactive_file ?? memory.stats?.inactive_file ?? 0;
  let rx = 0;
  let tx = 0;
  for (const net of Object.values(frame.networks ?? {})) {
    rx += net.rx_bytes ?? 0;
    tx += net.tx_bytes ?? 0;
  }
  return {
    cpuNs: frame.cpu_stats?.cpu_usage?.total_usage ?? 0,
    memoryBytes: inactive < usage ? usage - inactive : usage,
    rxBytes: rx,
    txBytes: tx,
  };
}

/**
 * Follows a container's stats stream (Docker sends a frame about once a second) and keeps the last
 * frame, so the servers layer can read a sample on its own tick without one request per read.
 */
export class StatsFollower {
  private last: ProcessSample = { cpuNs: 0, memoryBytes: 0, rxBytes: 0, txBytes: 0 };
  private stream: NodeJS.ReadableStream | null = null;
  private stopped = false;

  constructor(private readonly container: Dockerode.Container) {}

  start(): void {
    void this.container.stats({ stream: true }).then(
      (stream) => {
        if (this.stopped) return destroy(stream);
        this.stream = stream;
        let buffered = '';
        stream.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (!line) continue;
            try {
              this.last = sampleOf(JSON.parse(line) as StatsFrame);
            } catch {
              // A frame cut by a closing stream: the next one will do.
            }
          }
        });
        stream.on('error', () => {});
      },
      () => {}, // the container went away: the exit is reported elsewhere
    );
  }

  get sample(): ProcessSample {
    return this.last;
  }

  stop(): void {
    this.stopped = true;
    if (this.stream) destroy(this.stream);
    this.stream = null;
  }
}

function destroy(stream: NodeJS.ReadableStream): void {
  (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
}
