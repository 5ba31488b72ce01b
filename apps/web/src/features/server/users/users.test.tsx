import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PERMISSION_CATALOGUE } from '@talon/shared/permissions';
import type { SubuserWire } from '@talon/shared/validation/subusers';
import type { AccountUser } from '../../../api/types.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { useServerStore } from '../store.ts';
import { UsersPage } from './UsersPage.tsx';

const ME: AccountUser = {
  uuid: 'me-0000',
  username: 'owner',
  email: 'owner@example.com',
  language: 'en',
  rootAdmin: false,
  useTotp: false,
  createdAt: null,
  updatedAt: null,
};

const ALICE: SubuserWire = {
  uuid: 'alice-0001',
  username: 'alice',
  email: 'alice@example.com',
  image: 'https://gravatar.com/avatar/abc',
  '2fa_enabled': true,
  created_at: '2026-01-02T03:04:05+00:00',
  permissions: ['control.console', 'file.read', 'file.create', 'websocket.connect'],
};
const BOB: SubuserWire = {
  uuid: 'bob-0002',
  username: 'bob.builder',
  email: 'bob@example.com',
  image: 'https://gravatar.com/avatar/def',
  '2fa_enabled': false,
  created_at: '2026-01-02T03:04:05+00:00',
  permissions: ['websocket.connect'],
};
/** The signed-in user as a subuser of the server. */
const SELF: SubuserWire = { ...BOB, uuid: ME.uuid, username: 'owner', email: ME.email };

const list = (users: SubuserWire[]) => ({
  status: 200,
  body: { object: 'list', data: users.map((attributes) => ({ object: 'server_subuser', attributes })) },
});
const item = (attributes: SubuserWire) => ({ status: 200, body: { object: 'server_subuser', attributes } });
const refusal = (status: number, code: string, detail: string) => ({
  status,
  body: { errors: [{ code, status: String(status), detail }] },
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ user: null, flashes: [], permissions: {} });
  remoteAvatars(false);
});

/** The admin's "Show Gravatar pictures" setting as the page received it. */
function remoteAvatars(on: boolean) {
  useGlobalStore.setState((s) => ({ settings: { ...s.settings, remoteAvatars: on } }));
}

function setup(
  permissions: string[],
  answers: { status: number; body?: unknown }[],
  user: Partial<AccountUser> = {},
) {
  useGlobalStore.setState({ user: { ...ME, ...user }, flashes: [], permissions: PERMISSION_CATALOGUE });
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  setTestServer(permissions);
  renderAt(<UsersPage />);
  return stub;
}

const row = (uuid: string) => screen.getByTestId(`subuser-${uuid}`);
const dialog = () => screen.getByRole('dialog');
const box = (name: RegExp | string) => within(dialog()).getByRole('checkbox', { name });

describe('users page', () => {
  it('lists each subuser with picture, email, 2FA state and permission count, titled Users', async () => {
    remoteAvatars(true);
    const stub = setup(['*'], [list([ALICE, BOB])]);
    await screen.findByTestId('subuser-alice-0001');
    expect(stub.calls[0]).toMatchObject({ url: '/api/client/servers/abcd1234/users', method: 'GET' });
    expect(document.title).toBe('Survival | Users');
    expect(screen.getByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(within(row('alice-0001')).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(row('alice-0001')).getByTestId('subuser-2fa')).toHaveTextContent('2FA on');
    expect(within(row('bob-0002')).getByTestId('subuser-2fa')).toHaveTextContent('2FA off');
    // websocket.connect is not counted (spec 001 §3).
    expect(within(row('alice-0001')).getByTestId('subuser-permission-count')).toHaveTextContent(
      '3permissions',
    );
    expect(within(row('bob-0002')).getByTestId('subuser-permission-count')).toHaveTextContent('0permissions');
    // The avatar asks for size 400.
    const img = row('alice-0001').querySelector('img');
    expect(img).toHaveAttribute('src', 'https://gravatar.com/avatar/abc?s=400');
  });

  it('shows initials, on a colour of their own and with no picture at all, while remote avatars are off', async () => {
    setup(['*'], [list([ALICE, BOB])]);
    await screen.findByTestId('subuser-bob-0002');
    expect(document.querySelector('img')).toBeNull();
    const alice = within(row('alice-0001')).getByTestId('avatar-initials');
    const bob = within(row('bob-0002')).getByTestId('avatar-initials');
    expect(alice).toHaveTextContent('AL');
    expect(bob).toHaveTextContent('BB');
    expect(alice.style.backgroundColor).not.toBe('');
    // Decorative: the name is written beside it.
    expect(alice).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows initials instead of a picture that cannot load, never a broken image', async () => {
    remoteAvatars(true);
    setup(['*'], [list([ALICE, BOB])]);
    await screen.findByTestId('subuser-bob-0002');
    fireEvent.error(row('bob-0002').querySelector('img')!);
    expect(row('bob-0002').querySelector('img')).toBeNull();
    expect(within(row('bob-0002')).getByTestId('avatar-initials')).toHaveTextContent('BB');
    // The other picture is untouched.
    expect(row('alice-0001').querySelector('img')).not.toBeNull();
  });

  it('gives nobody edit or delete on their own row', async () => {
    setup(['user.read', 'user.update', 'user.delete', 'user.create'], [list([ALICE, SELF])]);
    await screen.findByTestId(`subuser-${ME.uuid}`);
    expect(within(row(ME.uuid)).queryAllByRole('button')).toEqual([]);
    expect(
      within(row('alice-0001')).getByRole('button', { name: 'Edit the access of alice@example.com' }),
    ).toBeInTheDocument();
    expect(
      within(row('alice-0001')).getByRole('button', { name: 'Remove alice@example.com from this server' }),
    ).toBeInTheDocument();
  });

  it('offers New User with user.create only, delete with user.delete only, and view without user.update', async () => {
    setup(['user.read'], [list([ALICE])]);
    await screen.findByTestId('subuser-alice-0001');
    expect(screen.queryByRole('button', { name: 'New User' })).toBeNull();
    expect(within(row('alice-0001')).queryByRole('button', { name: /Remove/ })).toBeNull();
    fireEvent.click(
      within(row('alice-0001')).getByRole('button', { name: 'View the access of alice@example.com' }),
    );
    // Editing is disabled without user.update: nothing can be ticked or saved.
    expect(within(dialog()).getByTestId('read-only-hint')).toHaveTextContent(
      'You do not have permission to change what users may do.',
    );
    expect(box('console')).toBeDisabled();
    expect(box('console')).toBeChecked();
    expect(within(dialog()).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('offers the catalogue groups with their descriptions, without the websocket group', async () => {
    setup(['*'], [list([])]);
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    expect(screen.getByRole('heading', { name: 'Invite a user' })).toBeInTheDocument();
    const groups = within(dialog())
      .getAllByRole('group')
      .map((g) => g.getAttribute('data-testid'));
    expect(groups).toEqual(
      Object.keys(PERMISSION_CATALOGUE)
        .filter((g) => g !== 'websocket')
        .map((g) => `permission-group-${g}`),
    );
    const file = screen.getByTestId('permission-group-file');
    expect(within(file).getByText(PERMISSION_CATALOGUE.file.description)).toBeInTheDocument();
    expect(within(file).getByText(PERMISSION_CATALOGUE.file.keys['read-content'])).toBeInTheDocument();
    expect(within(dialog()).queryByText('connect')).toBeNull();
    // An owner holds '*': everything can be ticked and there is no hint.
    expect(within(dialog()).queryByTestId('held-hint')).toBeNull();
    for (const checkbox of within(dialog()).getAllByRole('checkbox')) expect(checkbox).toBeEnabled();
  });

  it('lets a subuser tick only what they hold, and says so', async () => {
    setup(['user.create', 'user.read', 'file.read', 'file.create'], [list([])]);
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    expect(within(dialog()).getByTestId('held-hint')).toHaveTextContent(
      'You can only give permissions that you hold yourself',
    );
    const file = screen.getByTestId('permission-group-file');
    expect(within(file).getByRole('checkbox', { name: 'read' })).toBeEnabled();
    expect(within(file).getByRole('checkbox', { name: 'create' })).toBeEnabled();
    expect(within(file).getByRole('checkbox', { name: 'delete' })).toBeDisabled();
    const control = screen.getByTestId('permission-group-control');
    expect(within(control).getByRole('checkbox', { name: 'console' })).toBeDisabled();
    // The group checkbox selects what may be selected, and clears it again.
    const all = within(file).getByRole('checkbox', { name: 'Every File permission' });
    fireEvent.click(all);
    expect(within(file).getByRole('checkbox', { name: 'read' })).toBeChecked();
    expect(within(file).getByRole('checkbox', { name: 'create' })).toBeChecked();
    expect(within(file).getByRole('checkbox', { name: 'delete' })).not.toBeChecked();
    expect(all).toBeChecked();
    fireEvent.click(all);
    expect(within(file).getByRole('checkbox', { name: 'read' })).not.toBeChecked();
    // Nothing of a group the user holds nothing of can be ticked, its group checkbox included.
    expect(within(control).getByRole('checkbox', { name: 'Every Control permission' })).toBeDisabled();
  });

  it('lets a root admin give anything even without holding it', async () => {
    setup(['user.create', 'user.read'], [list([])], { rootAdmin: true });
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    expect(within(dialog()).queryByTestId('held-hint')).toBeNull();
    expect(
      within(screen.getByTestId('permission-group-control')).getByRole('checkbox', { name: 'console' }),
    ).toBeEnabled();
  });

  it('shows the spec messages word for word and sends nothing while the form is wrong', async () => {
    const stub = setup(['*'], [list([])]);
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Invite User' }));
    expect(await within(dialog()).findByText('A valid email address must be provided.')).toBeInTheDocument();
    const email = within(dialog()).getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.blur(email);
    expect(await within(dialog()).findByText('A valid email address must be provided.')).toBeInTheDocument();
    fireEvent.change(email, { target: { value: `${'a'.repeat(180)}@example.com` } });
    fireEvent.blur(email);
    expect(
      await within(dialog()).findByText('Email addresses must not exceed 191 characters.'),
    ).toBeInTheDocument();
    fireEvent.change(email, { target: { value: 'new@example.com' } });
    const folders = within(dialog()).getByLabelText('Limit to folders');
    fireEvent.change(folders, { target: { value: '/plugins\n../etc' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Invite User' }));
    expect(
      await within(dialog()).findByText(/^\.\.\/etc: A folder must be a path from the server root/),
    ).toBeInTheDocument();
    expect(stub.calls).toHaveLength(1);
  });

  it('invites: sends email, permissions in catalogue order and the folders, then lists the new user', async () => {
    const created: SubuserWire = {
      ...BOB,
      uuid: 'new-0003',
      email: 'new@example.com',
      username: 'new',
      permissions: ['file.read', 'control.console', 'websocket.connect'],
      file_paths: ['/plugins'],
    };
    const stub = setup(['*'], [list([ALICE]), item(created)]);
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    fireEvent.change(within(dialog()).getByLabelText('Email'), { target: { value: ' new@example.com ' } });
    fireEvent.click(
      within(screen.getByTestId('permission-group-file')).getByRole('checkbox', { name: 'read' }),
    );
    fireEvent.click(
      within(screen.getByTestId('permission-group-control')).getByRole('checkbox', { name: 'console' }),
    );
    fireEvent.change(within(dialog()).getByLabelText('Limit to folders'), {
      target: { value: 'plugins/\n' },
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Invite User' }));
    await screen.findByTestId('subuser-new-0003');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/users',
      method: 'POST',
      body: {
        email: 'new@example.com',
        permissions: ['control.console', 'file.read'],
        file_paths: ['/plugins'],
      },
    });
  });

  it('edits: the email is read-only, the folders and permissions are kept, and the row follows', async () => {
    const withFolders = { ...ALICE, file_paths: ['/plugins', '/world'] };
    const stub = setup(
      ['*'],
      [list([withFolders]), item({ ...withFolders, permissions: ['file.read'], file_paths: null })],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the access of alice@example.com' }));
    expect(within(dialog()).getByLabelText('Email')).toHaveAttribute('readonly');
    expect(within(dialog()).getByLabelText('Limit to folders')).toHaveValue('/plugins\n/world');
    fireEvent.click(box('console'));
    fireEvent.click(
      within(screen.getByTestId('permission-group-file')).getByRole('checkbox', { name: 'create' }),
    );
    fireEvent.change(within(dialog()).getByLabelText('Limit to folders'), { target: { value: '' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/users/alice-0001',
      method: 'POST',
      body: { email: 'alice@example.com', permissions: ['file.read'], file_paths: null },
    });
    expect(within(row('alice-0001')).getByTestId('subuser-permission-count')).toHaveTextContent(
      '1permission',
    );
  });

  it('shows the panel refusal inside the modal (user:edit), not on the page', async () => {
    setup(
      ['*'],
      [
        list([]),
        refusal(
          400,
          'ServerSubuserExistsException',
          'A user with that email address is already assigned as a subuser for this server.',
        ),
      ],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'New User' }));
    fireEvent.change(within(dialog()).getByLabelText('Email'), { target: { value: 'alice@example.com' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Invite User' }));
    expect(
      await within(dialog()).findByText(
        'A user with that email address is already assigned as a subuser for this server.',
      ),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['user:edit']);
    // Closing the modal takes its message away.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(useGlobalStore.getState().flashes).toEqual([]);
  });

  it('removes a user only after the confirmation', async () => {
    const stub = setup(['*'], [list([ALICE, BOB]), { status: 204 }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bob@example.com from this server' }));
    expect(
      within(dialog()).getByText(/bob@example.com will lose access to this server at once/),
    ).toBeInTheDocument();
    expect(stub.calls).toHaveLength(1);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Yes, remove user' }));
    await waitFor(() => expect(screen.queryByTestId('subuser-bob-0002')).toBeNull());
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/users/bob-0002',
      method: 'DELETE',
    });
    expect(screen.getByTestId('subuser-alice-0001')).toBeInTheDocument();
  });

  it('keeps the row and shows the refusal under the users key when a removal fails', async () => {
    setup(['*'], [list([ALICE]), refusal(403, 'HttpForbiddenException', 'This action is unauthorized.')]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove alice@example.com from this server' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Yes, remove user' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['users']);
    expect(screen.getByTestId('subuser-alice-0001')).toBeInTheDocument();
  });

  it('says why the list could not be loaded, under the users key, and tries again on request', async () => {
    const stub = setup(
      ['*'],
      [refusal(403, 'AccessDeniedHttpException', 'This action is unauthorized.'), list([ALICE])],
    );
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['users']);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('subuser-alice-0001');
    expect(stub.calls).toHaveLength(2);
  });
});
