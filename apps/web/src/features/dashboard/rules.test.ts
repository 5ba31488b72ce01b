import { describe, expect, it } from 'vitest';
import { pageAddress, pageWindow, parsePage } from './pagination.ts';
import { cardBadge, statusColour } from './badge.ts';
import { showAllKey } from './showAll.ts';
import type { ServerResources } from '../../api/servers.ts';

describe('pageWindow (current−2 … current+5)', () => {
  it.each([
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [1, 20, [1, 2, 3, 4, 5, 6]],
    [2, 20, [1, 2, 3, 4, 5, 6, 7]],
    [3, 20, [1, 2, 3, 4, 5, 6, 7, 8]],
    [10, 20, [8, 9, 10, 11, 12, 13, 14, 15]],
    [18, 20, [16, 17, 18, 19, 20]],
    [20, 20, [18, 19, 20]],
    [1, 0, [1]],
  ])('page %i of %i → %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });
});

describe('page address', () => {
  it.each([
    [1, '/'],
    [2, '/?page=2'],
    [0, '/'],
    [13, '/?page=13'],
  ])('%i → %s', (page, expected) => expect(pageAddress(page)).toBe(expected));
  it.each([
    [null, 1],
    ['2', 2],
    ['0', 1],
    ['-3', 1],
    ['abc', 1],
    ['1.5', 1],
  ])('parsePage(%j) → %i', (raw, expected) => expect(parsePage(raw)).toBe(expected));
  it('remembers the admin choice per user', () => expect(showAllKey('u-1')).toBe('u-1:show_all_servers'));
});

const stats: ServerResources = {
  state: 'running',
  isSuspended: false,
  memoryBytes: 1,
  cpuAbsolute: 1,
  diskBytes: 1,
  rxBytes: 0,
  txBytes: 0,
  uptime: 1000,
};

describe('cardBadge', () => {
  const server = (status: string | null, isTransferring = false) => ({ status, isTransferring });
  const none = { data: undefined, isError: false, isLoading: false };
  it.each([
    ['figures when resources are loaded', server(null), { ...none, data: stats }, null],
    ['Suspended by status', server('suspended'), none, 'Suspended'],
    [
      'Suspended by the report',
      server(null),
      { ...none, data: { ...stats, isSuspended: true } },
      'Suspended',
    ],
    ['Connection Error on a failed load', server(null), { ...none, isError: true }, 'Connection Error'],
    ['Transferring', server(null, true), none, 'Transferring'],
    ['Installing', server('installing'), none, 'Installing'],
    ['Restoring Backup', server('restoring_backup'), none, 'Restoring Backup'],
    ['a spinner while loading', server(null), { ...none, isLoading: true }, 'loading'],
    ['Install Failed, not Unavailable', server('install_failed'), none, 'Install Failed'],
    // Its resources cannot load (the panel refuses a server in conflict): not a "Connection Error".
    [
      'Install Failed, not Connection Error',
      server('install_failed'),
      { ...none, isError: true },
      'Install Failed',
    ],
    ['Install Failed after a reinstall', server('reinstall_failed'), none, 'Install Failed'],
    ['Unavailable otherwise', server('some_future_status'), none, 'Unavailable'],
    ['Unavailable with nothing loaded', server(null), none, 'Unavailable'],
  ] as const)('%s', (_name, s, resources, expected) => {
    expect(cardBadge(s, resources)).toBe(expected);
  });
});

describe('statusColour', () => {
  it.each([
    ['offline', 'red'],
    ['running', 'green'],
    ['starting', 'yellow'],
    ['stopping', 'yellow'],
    [undefined, 'yellow'],
  ])('%s → %s', (state, colour) => expect(statusColour(state)).toBe(colour));
});
