import type { Allocation } from '../../db/types.ts';

/** The application API's `allocation` object (reference §5.1). */
export function allocationAttributes(a: Allocation) {
  return {
    id: a.id,
    ip: a.ip,
    alias: a.ip_alias,
    port: a.port,
    notes: a.notes,
    assigned: a.server_id !== null,
  };
}
