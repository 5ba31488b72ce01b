import type { PowerAction } from '@talon/shared/wings/events';

export interface PowerButtonsState {
  startEnabled: boolean;
  restartEnabled: boolean;
  stopEnabled: boolean;
  /** The Stop button sends (and is labelled) `kill` once stopping, or once Stop was pressed. */
  stopAction: Extract<PowerAction, 'stop' | 'kill'>;
}

/** Enable rules of the power buttons (spec 001 §4 "Power"). `state` null means unknown. */
export function powerButtons(state: string | null, stopPressed: boolean): PowerButtonsState {
  const known = state !== null && state !== '';
  return {
    startEnabled: state === 'offline',
    restartEnabled: known,
    stopEnabled: known && state !== 'offline',
    stopAction: state === 'stopping' || stopPressed ? 'kill' : 'stop',
  };
}

/** Whether the power button group shows at all: any of start, stop or restart held. */
export const POWER_PERMISSIONS = ['control.start', 'control.stop', 'control.restart'] as const;
