import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { useDockerEngine } from './use-docker-engine.ts';

const engine = useDockerEngine();

test('a private engine runs the imported busybox image as the container user', async () => {
  await engine.importBusybox('talon-test/yolk:one');
  const container = await engine.docker.createContainer({
    Image: 'talon-test/yolk:one',
    Cmd: ['sh', '-c', 'id -u; echo hello from $HOME; ls -d /home/container /tmp'],
    User: '1000:1000',
    Env: ['HOME=/home/container'],
    HostConfig: { NetworkMode: 'host' },
  });
  await container.start();
  await container.wait();
  const logs = await container.logs({ stdout: true, stderr: true });
  const out = new PassThrough();
  const text: string[] = [];
  out.on('data', (c: Buffer) => text.push(c.toString()));
  engine.docker.modem.demuxStream(bufferStream(logs), out, out);
  await new Promise((r) => setImmediate(r));
  expect(text.join('')).toBe('1000\nhello from /home/container\n/home/container\n/tmp\n');
  await container.remove();
}, 120_000);

function bufferStream(buffer: Buffer): NodeJS.ReadableStream {
  const s = new PassThrough();
  s.end(buffer);
  return s;
}
