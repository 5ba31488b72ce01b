/**
 * A pull stream as Docker Engine 28 writes it for a two-layer image (`POST /images/create`, one
 * JSON object per line), written for the progress tests: the layer sizes are 30 MiB and 50 MiB,
 * and each event carries the millisecond it arrives at.
 */
const MiB = 1024 * 1024;

export const PULLED_IMAGE = 'ghcr.io/talon-test/yolk:java_21';

export const RECORDED_PULL: Array<{ at: number; event: Record<string, unknown> }> = [
  { at: 0, event: { status: 'Pulling from talon-test/yolk', id: 'java_21' } },
  { at: 10, event: { status: 'Pulling fs layer', id: 'aaa111' } },
  { at: 12, event: { status: 'Pulling fs layer', id: 'bbb222' } },
  { at: 100, event: { status: 'Waiting', id: 'bbb222' } },
  ...[1, 2, 3, 4, 5, 6].map((i) => ({
    at: 100 + i * 300,
    event: {
      status: 'Downloading',
      progressDetail: { current: i * 5 * MiB, total: 30 * MiB },
      progress: `[====>    ] ${i * 5}MB/30MB`,
      id: 'aaa111',
    },
  })),
  { at: 2000, event: { status: 'Verifying Checksum', progressDetail: {}, id: 'aaa111' } },
  { at: 2001, event: { status: 'Download complete', progressDetail: {}, id: 'aaa111' } },
  ...[1, 2, 3, 4, 5].map((i) => ({
    at: 2000 + i * 400,
    event: {
      status: 'Downloading',
      progressDetail: { current: i * 10 * MiB, total: 50 * MiB },
      progress: `[=====>   ] ${i * 10}MB/50MB`,
      id: 'bbb222',
    },
  })),
  {
    at: 4050,
    event: { status: 'Extracting', progressDetail: { current: 30 * MiB, total: 30 * MiB }, id: 'aaa111' },
  },
  { at: 4100, event: { status: 'Pull complete', progressDetail: {}, id: 'aaa111' } },
  { at: 4150, event: { status: 'Download complete', progressDetail: {}, id: 'bbb222' } },
  { at: 4600, event: { status: 'Pull complete', progressDetail: {}, id: 'bbb222' } },
  {
    at: 4601,
    event: { status: 'Digest: sha256:0f3c2b9d1e8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1' },
  },
  { at: 4602, event: { status: `Status: Downloaded newer image for ${'ghcr.io/talon-test/yolk:java_21'}` } },
];
