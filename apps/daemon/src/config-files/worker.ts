/**
 * The parser worker's entry (a worker_threads Worker; see pool.ts): it rewrites one file's text per
 * message, so a file that takes long or much memory costs this thread, never the daemon's event
 * loop. The compiled build bundles it as apps/daemon/dist/config-files-worker.js.
 */
import { parentPort } from 'node:worker_threads';
import { transform, type TransformJob } from './transform.ts';

const port = parentPort;
if (!port) throw new Error('the configuration-file parser runs as a worker thread');
port.on('message', (job: TransformJob) => port.postMessage(transform(job)));
port.postMessage('ready');
