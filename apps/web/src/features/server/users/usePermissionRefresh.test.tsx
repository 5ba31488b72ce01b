import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { openFakeSocket } from '../../../test/fakeSocket.ts';
import { useServerStore } from '../store.ts';
import { usePermissionRefresh } from './usePermissionRefresh.ts';

function Probe({ reload }: { reload: () => void }) {
  usePermissionRefresh(reload);
  return null;
}

afterEach(() => {
  cleanup();
  useServerStore.getState().clear();
});

describe('usePermissionRefresh', () => {
  it("fetches the server again when the daemon says the user's tokens were revoked", () => {
    const { socket, receive } = openFakeSocket('token');
    useServerStore.getState().setSocket(socket);
    const reload = vi.fn();
    render(<Probe reload={reload} />);
    act(() => {
      receive('jwt error', 'jwt: exp claim is invalid');
    });
    act(() => {
      receive('token expired');
    });
    expect(reload).not.toHaveBeenCalled();
    act(() => {
      receive('jwt error', 'jwt: created too far in past (denylist)');
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('follows the socket the store holds and lets go of the old one', () => {
    const first = openFakeSocket('token');
    const second = openFakeSocket('token');
    const reload = vi.fn();
    useServerStore.getState().setSocket(first.socket);
    render(<Probe reload={reload} />);
    act(() => useServerStore.getState().setSocket(second.socket));
    act(() => {
      first.receive('jwt error', 'jwt: created too far in past (denylist)');
    });
    expect(reload).not.toHaveBeenCalled();
    act(() => {
      second.receive('jwt error', 'jwt: created too far in past (denylist)');
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
