import { http } from './http.ts';
import type { ServerAllocation } from './servers.ts';

/** An allocation as the Network page shows it (spec 001 §3): the server's one plus its notes. */
export interface Allocation extends ServerAllocation {
  notes: string | null;
}

interface WireAllocation {
  id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  notes: string | null;
  is_default: boolean;
}

function toAllocation(a: WireAllocation): Allocation {
  return {
    id: a.id,
    ip: a.ip,
    alias: a.ip_alias ?? null,
    port: a.port,
    notes: a.notes ?? null,
    isDefault: a.is_default,
  };
}

const base = (serverId: string) => `/api/client/servers/${serverId}/network/allocations`;

/** GET .../network/allocations (spec 001 §7). */
export async function getServerAllocations(serverId: string): Promise<Allocation[]> {
  const { data } = await http.get<{ data: { attributes: WireAllocation }[] }>(base(serverId));
  return data.data.map(({ attributes }) => toAllocation(attributes));
}

/** POST .../network/allocations: the panel picks the new allocation. */
export async function createServerAllocation(serverId: string): Promise<Allocation> {
  const { data } = await http.post<{ attributes: WireAllocation }>(base(serverId));
  return toAllocation(data.attributes);
}

/** POST .../network/allocations/{id}, body notes (empty clears them). */
export async function setServerAllocationNotes(
  serverId: string,
  allocationId: number,
  notes: string,
): Promise<Allocation> {
  const { data } = await http.post<{ attributes: WireAllocation }>(`${base(serverId)}/${allocationId}`, {
    notes,
  });
  return toAllocation(data.attributes);
}

/** POST .../network/allocations/{id}/primary. */
export async function setPrimaryServerAllocation(
  serverId: string,
  allocationId: number,
): Promise<Allocation> {
  const { data } = await http.post<{ attributes: WireAllocation }>(
    `${base(serverId)}/${allocationId}/primary`,
  );
  return toAllocation(data.attributes);
}

/** DELETE .../network/allocations/{id}. */
export async function deleteServerAllocation(serverId: string, allocationId: number): Promise<void> {
  await http.delete(`${base(serverId)}/${allocationId}`);
}
