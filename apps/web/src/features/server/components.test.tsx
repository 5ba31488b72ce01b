import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { PowerButtons } from './PowerButtons.tsx';
import { useServerStore } from './store.ts';
import { openFakeSocket } from '../../test/fakeSocket.ts';
import { Pagination } from '../dashboard/Pagination.tsx';

afterEach(() => useServerStore.getState().clear());

function setup(permissions: string[], state: string | null) {
  const { socket, sent } = openFakeSocket();
  useServerStore.setState({ permissions, powerState: state, socket, connected: true });
  render(<PowerButtons />);
  return sent;
}

describe('PowerButtons', () => {
  it('hides the group without any power permission', () => {
    setup(['control.console'], 'running');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows only the permitted buttons: no Start without control.start', () => {
    setup(['control.stop', 'control.restart'], 'offline');
    expect(screen.queryByRole('button', { name: 'Start' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Restart' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
  });

  it('turns Stop into Kill after the first press and sends kill then', () => {
    const sent = setup(['*'], 'running');
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(sent.at(-1)).toBe(JSON.stringify({ event: 'set state', args: ['stop'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Kill' }));
    expect(sent.at(-1)).toBe(JSON.stringify({ event: 'set state', args: ['kill'] }));
    act(() => useServerStore.setState({ powerState: 'offline' }));
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
  });

  it('shows Kill while stopping', () => {
    setup(['control.stop'], 'stopping');
    expect(screen.getByRole('button', { name: 'Kill' })).toBeEnabled();
  });

  it('disables everything while not connected', () => {
    setup(['*'], 'offline');
    act(() => useServerStore.setState({ connected: false }));
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
  });
});

describe('Pagination', () => {
  const links = () => screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
  it('renders nothing for a single page', () => {
    const { container } = render(
      <MemoryRouter>
        <Pagination current={1} total={1} />
      </MemoryRouter>,
    );
    expect(container.innerHTML).toBe('');
  });
  it('shows current−2 … current+5 with first and last jumps', () => {
    render(
      <MemoryRouter>
        <Pagination current={10} total={30} />
      </MemoryRouter>,
    );
    expect(links()).toEqual([
      ['«', '/'],
      ...[8, 9, 10, 11, 12, 13, 14, 15].map((n) => [String(n), `/?page=${n}`]),
      ['»', '/?page=30'],
    ]);
    expect(screen.getByRole('link', { name: '10' })).toHaveAttribute('aria-current', 'page');
  });
  it('omits the jumps when the window reaches the ends', () => {
    render(
      <MemoryRouter>
        <Pagination current={1} total={3} />
      </MemoryRouter>,
    );
    expect(links()).toEqual([
      ['1', '/'],
      ['2', '/?page=2'],
      ['3', '/?page=3'],
    ]);
  });
});
