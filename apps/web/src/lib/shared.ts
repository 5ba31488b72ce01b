// Deep imports of the shared helpers the server screens use. Importing the package's barrel from
// these lazily loaded screens made the bundler move zod (used by the barrel's other modules) into
// a chunk the login page loads, over its size budget.
export { formatBytes, formatBytesShort, megabytesToBytes } from '@talon/shared/format/bytes';
export { formatUptime } from '@talon/shared/format/uptime';
export { allocationAddress } from '@talon/shared/format/address';
export { formatLimit, isResourceAlarm } from '@talon/shared/format/limits';
export { formatModeBits } from '@talon/shared/format/mode';
export { can } from '@talon/shared/permissions';
