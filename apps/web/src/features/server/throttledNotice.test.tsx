import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { useGlobalStore } from '../../app/store.ts';
import { openFakeSocket } from '../../test/fakeSocket.ts';
import { attachSocketHandlers } from './connection.ts';
import { MAX_QUEUED } from './outboundPacer.ts';
import { useServerStore } from './store.ts';
import { THROTTLED_FLASH_KEY, THROTTLED_NOTICE_MS, THROTTLED_TEXT } from './throttledNotice.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  useServerStore.getState().clear();
  useGlobalStore.getState().clearFlashes();
});

function connected() {
  const fake = openFakeSocket('token');
  const detach = attachSocketHandlers(fake.socket, {
    refreshToken: () => Promise.resolve('fresh'),
    reloadServer: vi.fn(),
    restart: vi.fn(),
  });
  render(<FlashMessageRender byKey={THROTTLED_FLASH_KEY} />);
  return { ...fake, detach };
}

const notices = () => screen.queryAllByText(THROTTLED_TEXT);

describe('the throttled notice', () => {
  it('shows one short line however many throttled events arrive, for a few seconds, then again on the next', () => {
    const { receive } = connected();
    expect(notices()).toHaveLength(0);
    act(() => {
      for (let i = 0; i < 50; i++) receive('throttled', i % 2 ? 'global' : 'send command');
    });
    expect(notices()).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent(THROTTLED_TEXT);
    act(() => {
      vi.advanceTimersByTime(THROTTLED_NOTICE_MS - 1);
    });
    act(() => {
      receive('throttled', 'set state');
    });
    expect(notices()).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(notices()).toHaveLength(0);
    act(() => {
      receive('throttled', 'send logs');
    });
    expect(notices()).toHaveLength(1);
  });

  it('goes when the user leaves the server', () => {
    const { receive, detach } = connected();
    act(() => {
      receive('throttled', 'global');
    });
    expect(notices()).toHaveLength(1);
    act(() => {
      detach();
    });
    expect(notices()).toHaveLength(0);
  });

  it('also shows when the page itself had to drop messages (too many waiting to be sent)', () => {
    const { socket, sent } = connected();
    act(() => {
      for (let i = 0; i < 10 + MAX_QUEUED + 1; i++) socket.send('send command', `say ${i}`);
    });
    expect(notices()).toHaveLength(1);
    // Nothing over the daemon's limits went out at once: the auth of the connection and 9 commands.
    expect(sent).toHaveLength(10);
  });
});
