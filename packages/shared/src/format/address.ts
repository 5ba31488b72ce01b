/** An allocation as shown to people: its alias when it has one, else its IP, then the port (spec §2). */
export function allocationAddress(allocation: { alias?: string | null; ip: string; port: number }): string {
  const host = allocation.alias ? allocation.alias : allocation.ip;
  return `${host}:${allocation.port}`;
}
