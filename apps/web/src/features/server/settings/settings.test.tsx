import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { useServerStore } from '../store.ts';
import { SettingsPage } from './SettingsPage.tsx';
import { sftpAddress } from './SftpDetails.tsx';
import { setTestServer } from '../../../test/server.ts';

afterEach(() => {
  // Unmount before the store empties: the page reads the server it was rendered for.
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ user: null, flashes: [] });
});

function setup(permissions: string[], answers: { status: number; body?: unknown }[] = []) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  useGlobalStore.setState({
    user: {
      uuid: 'u1',
      username: 'alice',
      email: 'alice@example.test',
      language: 'en',
      rootAdmin: false,
      useTotp: false,
      createdAt: null,
      updatedAt: null,
    },
  });
  setTestServer(permissions, {
    description: 'Main world',
    sftp_details: { ip: '203.0.113.5', port: 2022 },
  });
  renderAt(<SettingsPage />);
  return stub;
}

describe('server settings page', () => {
  it('shows the SFTP details, the debug information and both forms to the owner', () => {
    setup(['*']);
    expect(screen.getByTestId('sftp-address')).toHaveTextContent('sftp://203.0.113.5:2022');
    expect(screen.getByTestId('sftp-username')).toHaveTextContent('alice.abcd1234');
    expect(screen.getByRole('link', { name: 'Launch SFTP' })).toHaveAttribute(
      'href',
      'sftp://alice.abcd1234@203.0.113.5:2022',
    );
    expect(screen.getByText('Local')).toBeInTheDocument();
    expect(screen.getByText('abcd1234-0000-4000-8000-000000000001')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Change Server Name' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Reinstall Server' })).toBeInTheDocument();
    expect(document.title).toBe('Survival | Settings');
  });

  it('shows a subuser only what their permissions allow', () => {
    setup(['file.sftp']);
    expect(screen.getByTestId('sftp-username')).toHaveTextContent('alice.abcd1234');
    expect(screen.getByRole('region', { name: 'Debug Information' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Change Server Name' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Reinstall Server' })).toBeNull();
  });

  it('hides the SFTP details without file.sftp', () => {
    setup(['settings.rename']);
    expect(screen.queryByTestId('sftp-address')).toBeNull();
    expect(screen.getByRole('region', { name: 'Change Server Name' })).toBeInTheDocument();
  });

  it('refuses an empty name without calling the panel', async () => {
    const stub = setup(['settings.rename']);
    fireEvent.change(screen.getByLabelText('Server Name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A server name must be provided.')).toBeInTheDocument();
    expect(stub.calls).toHaveLength(0);
  });

  it('renames the server: the panel gets name and description, the store and title follow', async () => {
    const stub = setup(['settings.rename'], [{ status: 204 }]);
    fireEvent.change(screen.getByLabelText('Server Name'), { target: { value: ' Creative ' } });
    fireEvent.change(screen.getByLabelText('Server Description'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The server's name and description have been saved.")).toBeInTheDocument();
    expect(stub.calls).toEqual([
      expect.objectContaining({
        url: '/api/client/servers/abcd1234/settings/rename',
        method: 'POST',
        body: { name: 'Creative', description: '' },
      }),
    ]);
    expect(useServerStore.getState().server).toMatchObject({ name: 'Creative', description: '' });
    await waitFor(() => expect(document.title).toBe('Creative | Settings'));
  });

  it("shows the panel's refusal as an error flash and keeps the old name", async () => {
    setup(
      ['settings.rename'],
      [{ status: 403, body: { errors: [{ detail: 'This action is unauthorized.' }] } }],
    );
    fireEvent.change(screen.getByLabelText('Server Name'), { target: { value: 'Creative' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes).toEqual([
      expect.objectContaining({ key: 'settings', type: 'error', title: 'Error' }),
    ]);
    expect(useServerStore.getState().server?.name).toBe('Survival');
  });

  it('reinstalls only after confirmation and says it began', async () => {
    const stub = setup(['settings.reinstall'], [{ status: 202 }]);
    fireEvent.click(screen.getByRole('button', { name: 'Reinstall Server' }));
    expect(stub.calls).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Reinstall' }));
    expect(await screen.findByText('Your server has begun the reinstallation process.')).toBeInTheDocument();
    expect(stub.calls).toEqual([
      expect.objectContaining({ url: '/api/client/servers/abcd1234/settings/reinstall', method: 'POST' }),
    ]);
  });

  it('brackets IPv6 hosts in the address', () => {
    expect(sftpAddress('2001:db8::5', 2022)).toBe('sftp://[2001:db8::5]:2022');
    expect(sftpAddress('node1.example.com', 2022)).toBe('sftp://node1.example.com:2022');
  });
});
