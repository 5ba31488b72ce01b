import { describe, expect, it } from 'vitest';
import { powerButtons } from './power.ts';
import { gateFor } from './gating.ts';
import { conflictKind } from './ConflictNotice.tsx';
import { isInConflict } from './store.ts';
import { isRefreshableJwtError } from './connection.ts';
import { appendSample, emptyHistory, HISTORY_POINTS } from './history.ts';

describe('power button rules', () => {
  it.each([
    // state, stopPressed → start, restart, stop, stop action
    [null, false, false, false, false, 'stop'],
    ['offline', false, true, true, false, 'stop'],
    ['starting', false, false, true, true, 'stop'],
    ['running', false, false, true, true, 'stop'],
    ['running', true, false, true, true, 'kill'],
    ['stopping', false, false, true, true, 'kill'],
    ['something-new', false, false, true, true, 'stop'],
  ] as const)('%s (stop pressed: %s)', (state, pressed, start, restart, stop, action) => {
    expect(powerButtons(state, pressed)).toEqual({
      startEnabled: start,
      restartEnabled: restart,
      stopEnabled: stop,
      stopAction: action,
    });
  });
});

describe('tab gating', () => {
  const paths: [string, string[], string][] = [
    ['', [], 'allowed'],
    ['files', [], 'denied'],
    ['files', ['file.read'], 'allowed'],
    ['files/edit/config.yml', ['file.read-content'], 'allowed'],
    ['files/new', [], 'denied'],
    ['files/rename', ['file.read'], 'not-found'],
    ['databases', ['database.read'], 'allowed'],
    ['databases', ['file.read'], 'denied'],
    ['schedules', ['schedule.read'], 'allowed'],
    ['schedules/12', ['schedule.update'], 'allowed'],
    ['schedules/12', [], 'denied'],
    ['users', ['user.read'], 'allowed'],
    ['users', ['control.start'], 'denied'],
    ['backups', ['backup.create'], 'allowed'],
    ['network', ['allocation.read'], 'allowed'],
    ['network', [], 'denied'],
    ['startup', ['startup.read'], 'allowed'],
    ['settings', ['settings.rename'], 'allowed'],
    ['settings', ['file.sftp'], 'allowed'],
    ['settings', ['file.read'], 'denied'],
    ['anything', ['*'], 'not-found'],
    ['users', ['*'], 'allowed'],
    ['/files/', ['file.create'], 'allowed'],
  ];
  it.each(paths)('%s with %j → %s', (path, permissions, expected) => {
    expect(gateFor(path, permissions)).toBe(expected);
  });
});

describe('conflict state', () => {
  it.each([
    [null, false, false, null],
    ['installing', false, true, 'installing'],
    ['install_failed', false, true, 'install_failed'], // its own notice: the install failed, ask the administrator
    ['suspended', false, true, 'suspended'],
    ['restoring_backup', false, true, 'restoring'],
    [null, true, true, 'transferring'],
  ] as const)('status %s, transferring %s', (status, isTransferring, conflict, kind) => {
    expect(isInConflict({ status, isTransferring })).toBe(conflict);
    expect(conflictKind({ status, isTransferring })).toBe(kind);
  });
});

describe('jwt errors', () => {
  it.each([
    ['jwt: exp claim is invalid', true],
    ['jwt: created too far in past (denylist)', true],
    ['jwt: no jwt present', false],
    ['jwt: server uuid mismatch', false],
  ])('%s → refresh %s', (text, refresh) => expect(isRefreshableJwtError(text)).toBe(refresh));
});

describe('graph history', () => {
  const sample = (rx: number, tx: number) => ({
    memoryBytes: 10,
    memoryLimitBytes: 100,
    cpuAbsolute: 5,
    diskBytes: 1,
    rxBytes: rx,
    txBytes: tx,
    uptime: 0,
  });
  it('turns cumulative network counters into per-second rates', () => {
    let h = appendSample(emptyHistory(), sample(100, 50), null, 1000);
    h = appendSample(h, sample(300, 150), sample(100, 50), 3000);
    h = appendSample(h, sample(10, 5), sample(300, 150), 4000);
    expect(h.rx).toEqual([0, 100, 0]);
    expect(h.tx).toEqual([0, 50, 0]);
    expect(h.time).toEqual([1, 3, 4]);
  });
  it(`keeps the last ${HISTORY_POINTS} samples`, () => {
    let h = emptyHistory();
    for (let i = 0; i < HISTORY_POINTS + 20; i++) h = appendSample(h, sample(0, 0), null, i * 1000);
    expect(h.time).toHaveLength(HISTORY_POINTS);
    expect(h.time[0]).toBe(20);
  });
});
