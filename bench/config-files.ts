// Configuration-file rewriter (issue 23 item 4, CVE-2026-52857 class).
//   1. Linear scaling: ns per byte of each parser at 10 KB and at 1 MiB, for ordinary files and for
//      the inputs the old parsers took quadratic or cubic time on; a ratio near 1 is linear (the
//      old shapes would show ratios of ~100 and ~10,000).
//   2. Start latency the worker adds (compiled bundle, as `npm start` runs it): loading a worker
//      (first start after a minute idle), and a rewrite's round trip to a loaded worker, beside the
//      same rewrite in-process.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { transform, type TransformJob } from '../apps/daemon/src/config-files/transform.ts';

const root = path.resolve(import.meta.dirname, '..');
const KB10 = 10 * 1024;
const MiB = 1024 * 1024;
const rule = (match: string, replaceWith: unknown) => ({ match, replaceWith, ifValue: '' });

/** `unit` repeated to about `size` characters. */
const fill = (unit: (i: number) => string, size: number): string => {
  let out = '';
  for (let i = 0; out.length < size; i++) out += unit(i);
  return out;
};

const shapes: { name: string; parser: string; text: (size: number) => string; replace: TransformJob['replace'] }[] = [
  { name: 'properties', parser: 'properties', text: (n) => fill((i) => `key.${i}=value ${i}\n`, n), replace: [rule('server-port', '1')] },
  { name: 'properties: backslashes', parser: 'properties', text: (n) => '\\'.repeat(n) + 'x\n', replace: [rule('server-port', '1')] },
  { name: 'ini', parser: 'ini', text: (n) => '[Net]\n' + fill((i) => `Key${i} = ${i}\n`, n), replace: [rule('Net.Port', '1')] },
  { name: 'ini: a line of blanks', parser: 'ini', text: (n) => `[Net]\n${' '.repeat(n)}\nPort = 1\n`, replace: [rule('Net.Port', '2')] },
  { name: 'ini: `];` header', parser: 'ini', text: (n) => '[' + '];'.repeat(n / 2) + '\r\n', replace: [rule('Port', '2')] },
  { name: 'yaml', parser: 'yaml', text: (n) => fill((i) => `key${i}: value ${i}\n`, n), replace: [rule('port', '1')] },
  { name: 'json', parser: 'json', text: (n) => '{' + fill((i) => `"k${i}": ${i},`, n) + '"z": 0}', replace: [rule('port', 1)] },
  { name: 'xml', parser: 'xml', text: (n) => '<R>' + fill((i) => `<K${i}>${i}</K${i}>`, n) + '</R>', replace: [rule('R.Port', '1')] },
  { name: 'file', parser: 'file', text: (n) => fill((i) => `line ${i}\n`, n), replace: [rule('line 1', 'x')] },
];

function nsPerByte(parser: string, text: string, replace: TransformJob['replace']): number {
  const job = { parser, text, replace, values: {} };
  const reps = text.length < 100_000 ? 50 : 3;
  transform(job); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) transform(job);
  return Number(process.hrtime.bigint() - t0) / reps / text.length;
}

console.log('parser shape                 ns/B @10KB   ns/B @1MiB   ratio');
for (const s of shapes) {
  const small = nsPerByte(s.parser, s.text(KB10), s.replace);
  const large = nsPerByte(s.parser, s.text(MiB), s.replace);
  console.log(`${s.name.padEnd(28)} ${small.toFixed(1).padStart(9)} ${large.toFixed(1).padStart(12)} ${(large / small).toFixed(2).padStart(7)}`);
}

// 2. Latency, with the compiled worker.
const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root });
if (built.status !== 0) throw new Error(built.stderr.toString());
const serverProperties = fill((i) => `setting-${i}=value\n`, 1500);
const job: TransformJob = { parser: 'properties', text: serverProperties, replace: [rule('server-port', '25565')], values: {} };
const next = (w: Worker) => new Promise<unknown>((resolve) => w.once('message', resolve));
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loads: number[] = [];
const trips: number[] = [];
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  const w = new Worker(path.join(root, 'apps/daemon/dist/config-files-worker.js'), {
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  await next(w); // 'ready'
  loads.push(performance.now() - t0);
  for (let j = 0; j < 5; j++) {
    const t1 = performance.now();
    w.postMessage(job);
    await next(w);
    trips.push(performance.now() - t1);
  }
  await w.terminate();
}
const inProcess: number[] = [];
for (let i = 0; i < 35; i++) {
  const t0 = performance.now();
  transform(job);
  inProcess.push(performance.now() - t0);
}
console.log(`\nserver.properties of ${serverProperties.length} B, medians:`);
console.log(`  load a worker (first start, or after 60 s idle): ${median(loads).toFixed(1)} ms`);
console.log(`  rewrite through a loaded worker:                 ${median(trips).toFixed(2)} ms`);
console.log(`  the same rewrite in-process (before):            ${median(inProcess).toFixed(2)} ms`);
