import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importBusybox } from '../../test-support/docker-engine.ts';
import { waitUntil } from '../../test-support/harness.ts';
import { attachStdio } from './attach.ts';

// Podman's Docker-compatible API, in a private service (own storage, own socket, host network only).
let dir: string;
let service: ChildProcess;
let docker: Docker;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'talon-podman-'));
  const socket = path.join(dir, 'podman.sock');
  service = spawn(
    'podman',
    [
      `--root=${path.join(dir, 'root')}`,
      `--runroot=${path.join(dir, 'run')}`,
      `--tmpdir=${path.join(dir, 'tmp')}`,
      '--storage-driver=vfs',
      '--cgroup-manager=cgroupfs',
      '--events-backend=file',
      'system',
      'service',
      '--time=0',
      `unix://${socket}`,
    ],
    { stdio: 'ignore' },
  );
  docker = new Docker({ socketPath: socket });
  await waitUntil(
    () =>
      docker.ping().then(
        () => true,
        () => false,
      ),
    30_000,
    'podman service',
  );
  await importBusybox(docker, 'localhost/talon-test/busybox:1');
}, 120_000);

afterAll(async () => {
  if (service && service.exitCode === null) {
    const gone = new Promise((r) => service.once('exit', r));
    service.kill('SIGTERM');
    await gone;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

it('what the daemon writes after attaching is all the game reads: no request body reaches its stdin', async () => {
  const container = await docker.createContainer({
    Image: 'localhost/talon-test/busybox:1',
    Cmd: ['sh', '-c', 'read -r first; echo "first line: $first"'],
    OpenStdin: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    HostConfig: {
      NetworkMode: 'host',
      // Podman's default limits are above what this machine may grant (no CAP_SYS_RESOURCE).
      Ulimits: [
        { Name: 'nofile', Soft: 4096, Hard: 4096 },
        { Name: 'nproc', Soft: 4096, Hard: 4096 },
      ],
    },
  });
  const stdio = await attachStdio(docker, container.id);
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  docker.modem.demuxStream(stdio, out, out);
  await container.start();
  stdio.write('say hello\n');
  expect((await container.wait()) as { StatusCode: number }).toMatchObject({ StatusCode: 0 });
  await waitUntil(() => text.includes('\n'), 10_000, 'output');
  expect(text).toBe('first line: say hello\n');
  await container.remove({ force: true });
}, 120_000);
