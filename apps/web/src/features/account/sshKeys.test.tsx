import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SSH_KEY_VALIDATION_MESSAGES as M } from '@talon/shared/validation/sshKeys';
import { useGlobalStore } from '../../app/store.ts';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { AccountSshPage } from './AccountSshPage.tsx';

const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHkq7W0xZ4bO1v1s0VfVj0m2mXb0KQKX3aP8oPq1vY9Z alice@laptop';
const FINGERPRINT = 'n2Xq8bW9yXl0cH4ZsC8pQ2cC0v6nOqkM3JmX3j8mY0c';
const laptop = {
  object: 'ssh_key',
  attributes: {
    name: 'Laptop',
    fingerprint: FINGERPRINT,
    public_key: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
    created_at: '2025-01-05T14:03:00+00:00',
  },
};
const empty = { status: 200, body: { object: 'list', data: [] } };

beforeEach(() => useGlobalStore.setState({ flashes: [] }));
afterEach(() => vi.unstubAllGlobals());

function setup(answers: { status: number; body?: unknown }[]) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  renderAt(<AccountSshPage />, { path: '/account/ssh' });
  return stub;
}

describe('AccountSshPage', () => {
  it('lists the keys with their fingerprint, titled SSH Keys', async () => {
    setup([{ status: 200, body: { object: 'list', data: [laptop] } }]);
    const list = await screen.findByTestId('ssh-key-list');
    expect(within(list).getByText('Laptop')).toBeInTheDocument();
    expect(within(list).getByText(`SHA256:${FINGERPRINT}`)).toBeInTheDocument();
    expect(document.title).toBe('SSH Keys');
  });

  it('checks the key before sending it', async () => {
    const stub = setup([empty]);
    await screen.findByText('No SSH keys exist for this account.');
    fireEvent.click(screen.getByRole('button', { name: 'Add Key' }));
    expect(await screen.findByText(M.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(M.keyRequired)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Public Key'), {
      target: { value: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----' },
    });
    fireEvent.blur(screen.getByLabelText('Public Key'));
    expect(await screen.findByText(M.keyPrivate)).toBeInTheDocument();
    expect(stub.calls).toHaveLength(1);
  });

  it('adds a key and shows the fingerprint the panel computed', async () => {
    const stub = setup([empty, { status: 200, body: laptop }]);
    await screen.findByText('No SSH keys exist for this account.');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Laptop' } });
    fireEvent.change(screen.getByLabelText('Public Key'), { target: { value: `${PUBLIC_KEY}\n` } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Key' }));
    expect(
      await screen.findByText(`The key "Laptop" was added. Its fingerprint is SHA256:${FINGERPRINT}.`),
    ).toBeInTheDocument();
    expect(within(screen.getByTestId('ssh-key-list')).getByText(`SHA256:${FINGERPRINT}`)).toBeInTheDocument();
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/account/ssh-keys',
      method: 'POST',
      body: { name: 'Laptop', public_key: PUBLIC_KEY },
    });
    // The form is empty again for the next key.
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it("shows the panel's refusal and keeps what was typed", async () => {
    setup([
      empty,
      {
        status: 422,
        body: {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The public key provided already exists on your account.',
              meta: { source_field: 'public_key', rule: '' },
            },
          ],
        },
      },
    ]);
    await screen.findByText('No SSH keys exist for this account.');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Laptop' } });
    fireEvent.change(screen.getByLabelText('Public Key'), { target: { value: PUBLIC_KEY } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Key' }));
    expect(
      await screen.findByText('The public key provided already exists on your account.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Laptop');
    expect(screen.queryByTestId('ssh-key-list')).toBeNull();
  });

  it('removes a key after a confirmation, by its fingerprint', async () => {
    const stub = setup([{ status: 200, body: { object: 'list', data: [laptop] } }, { status: 204 }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove SSH key Laptop' }));
    expect(stub.calls).toHaveLength(1);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, remove key' }));
    await waitFor(() => expect(screen.queryByTestId('ssh-key-list')).toBeNull());
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/account/ssh-keys/remove',
      method: 'POST',
      body: { fingerprint: FINGERPRINT },
    });
  });
});
