import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

/**
 * The add-allocations form: an address and ports typed as `25565-25600, 27015`. The API's rules
 * (reference §5.3) are checked first, in its words: each entry a port or a range of 4–5 digits
 * each end, at most 1000 ports a range, every port above 1024 and at most 65535.
 */
const MAX_RANGE = 1000;

/** `"25565-25600, 27015"` → `["25565-25600", "27015"]` (commas or spaces separate). */
export function splitPorts(text: string): string[] {
  return text
    .split(/[\s,]+/u)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The API's message for the first entry it would refuse, or null. */
export function portsProblem(entries: string[]): string | null {
  if (entries.length === 0) return 'Enter at least one port or range, such as 25565-25600.';
  for (const entry of entries) {
    const single = /^\d+$/u.test(entry) ? Number(entry) : null;
    const range = /^(\d{4,5})-(\d{4,5})$/u.exec(entry);
    const start = single ?? (range ? Number(range[1]) : Number.NaN);
    const end = single ?? (range ? Number(range[2]) : Number.NaN);
    if (Number.isNaN(start) || end < start)
      return `The mapping provided for ${entry} was invalid and could not be processed.`;
    if (end - start + 1 > MAX_RANGE)
      return 'Adding more than 1000 ports in a single range at once is not supported.';
    if (start <= 1024 || end > 65535)
      return 'Ports in an allocation must be greater than 1024 and less than or equal to 65535.';
  }
  return null;
}

export interface AllocationFormValues {
  ip: string;
  alias: string;
  ports: string;
}

export function allocationProblems(v: AllocationFormValues): FormProblems<AllocationFormValues> {
  const problems: FormProblems<AllocationFormValues> = {};
  if (v.ip.trim() === '') problems.ip = 'Enter an IP address, a block such as 192.0.2.0/28, or a hostname.';
  if (v.alias.trim().length > 191) problems.alias = 'The alias may not be longer than 191 characters.';
  const ports = portsProblem(splitPorts(v.ports));
  if (ports) problems.ports = ports;
  return problems;
}

export const allocationResolver = problemsResolver(allocationProblems, (v) => ({
  ...v,
  ip: v.ip.trim(),
  alias: v.alias.trim(),
}));

export const EMPTY_ALLOCATION: AllocationFormValues = { ip: '', alias: '', ports: '' };

/** Which field a 400 of the allocation endpoint is about, by its exception code. */
export function allocationErrorField(code: string | null, detail: string): 'ip' | 'ports' | null {
  if (code === 'CidrOutOfRangeException' || detail.startsWith('Could not parse provided allocation IP'))
    return 'ip';
  if (
    code === 'InvalidPortMappingException' ||
    code === 'TooManyPortsInRangeException' ||
    code === 'PortOutOfRangeException'
  )
    return 'ports';
  return null;
}

/** A 422's `source_field` (`ports.0`, `alias`…) → the form's field. */
export function allocationFieldForWire(wire: string): keyof AllocationFormValues | null {
  const head = wire.split('.')[0];
  return head === 'ip' || head === 'alias' || head === 'ports' ? head : null;
}
