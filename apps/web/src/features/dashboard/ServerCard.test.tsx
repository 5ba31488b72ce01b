import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { toServer, type WireServer } from '../../api/servers.ts';
import { ServerCard } from './ServerCard.tsx';

afterEach(() => vi.unstubAllGlobals());

const wire = (patch: Partial<WireServer> = {}): WireServer => ({
  identifier: 'abcd1234',
  internal_id: 7,
  uuid: 'abcd1234-uuid',
  name: 'Survival',
  description: 'A world',
  node: 'Local',
  status: null,
  limits: { cpu: 100, memory: 1024, disk: 0 },
  relationships: {
    allocations: {
      data: [
        {
          attributes: { id: 1, ip: '10.0.0.1', ip_alias: 'play.example.com', port: 25565, is_default: true },
        },
        { attributes: { id: 2, ip: '10.0.0.1', ip_alias: null, port: 25566, is_default: false } },
      ],
    },
  },
  ...patch,
});

const resources = (patch: Record<string, unknown> = {}) => ({
  status: 200,
  body: {
    object: 'stats',
    attributes: {
      current_state: 'running',
      is_suspended: false,
      resources: {
        memory_bytes: 1024 ** 3 * 0.95,
        cpu_absolute: 89.9,
        disk_bytes: 5 * 1024 ** 2,
        network_rx_bytes: 0,
        network_tx_bytes: 0,
        uptime: 90_061_000,
      },
      ...patch,
    },
  },
});

describe('ServerCard', () => {
  it('shows the figures, Unlimited for a 0 limit, the alarm at 90 % and the uptime in days', async () => {
    vi.stubGlobal('fetch', stubFetch([resources()]).fn);
    renderAt(<ServerCard server={toServer(wire())} />);
    expect(await screen.findByText('1d 1h 1m')).toBeInTheDocument();
    expect(screen.getByText('play.example.com:25565')).toBeInTheDocument();
    expect(screen.getByText('/ Unlimited')).toBeInTheDocument();
    expect(screen.getByText('89.90 %')).not.toHaveClass('text-red-400');
    expect(screen.getByText('972.80 MB')).toHaveClass('text-red-400');
    expect(screen.getByText('Survival').closest('a')).toHaveAttribute('href', '/server/abcd1234');
  });

  it('never asks for the resources of a suspended server', async () => {
    const stub = stubFetch([]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<ServerCard server={toServer(wire({ status: 'suspended' }))} />);
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    expect(stub.calls).toHaveLength(0);
  });

  it('shows Suspended when the report says so, and Connection Error when it fails', async () => {
    vi.stubGlobal('fetch', stubFetch([resources({ is_suspended: true })]).fn);
    const first = renderAt(<ServerCard server={toServer(wire())} />);
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    first.unmount();
    vi.stubGlobal('fetch', stubFetch([{ status: 409, body: { errors: [{ detail: 'conflict' }] } }]).fn);
    renderAt(<ServerCard server={toServer(wire())} />);
    expect(await screen.findByText('Connection Error')).toBeInTheDocument();
  });
});
