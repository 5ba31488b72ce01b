/**
 * An allocation as shown to people: its alias when it has one, else its IP, then the port (spec §2).
 * An IPv6 address is bracketed (`[2001:db8::5]:25565`), the form game clients and URLs accept.
 */
export function allocationAddress(allocation: { alias?: string | null; ip: string; port: number }): string {
  const host = allocation.alias ? allocation.alias : allocation.ip;
  return host.includes(':') ? `[${host}]:${allocation.port}` : `${host}:${allocation.port}`;
}
