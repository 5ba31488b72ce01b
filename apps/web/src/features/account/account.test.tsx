import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useGlobalStore } from '../../app/store.ts';
import { fullPage } from '../../lib/navigation.ts';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { AccountOverviewPage } from './AccountOverviewPage.tsx';
import { UpdateEmailForm } from './UpdateEmailForm.tsx';
import { UpdatePasswordForm } from './UpdatePasswordForm.tsx';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';

vi.mock('qrcode', () => ({
  toDataURL: (text: string) => Promise.resolve(`data:image/png;base64,${btoa(text)}`),
}));

const user = {
  uuid: 'u-1',
  username: 'alice',
  email: 'alice@example.com',
  language: 'en',
  rootAdmin: false,
  useTotp: false,
  createdAt: null,
  updatedAt: null,
};

beforeEach(() => useGlobalStore.setState({ user: { ...user }, flashes: [] }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AccountOverviewPage', () => {
  it('shows the three panels and no banner by default', () => {
    renderAt(<AccountOverviewPage />, { path: '/account' });
    expect(screen.getByRole('region', { name: 'Update Password' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Update Email Address' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Configure Two Factor' })).toBeInTheDocument();
    expect(screen.queryByText('2-Factor Required')).not.toBeInTheDocument();
    expect(document.title).toBe('Account Overview');
  });
  it('shows the 2-Factor Required banner after a two-factor redirect', () => {
    renderAt(<AccountOverviewPage />, { path: '/account', state: { twoFactorRedirect: true } });
    expect(screen.getByText('2-Factor Required')).toBeInTheDocument();
    expect(
      screen.getByText('Your account must have two-factor authentication enabled in order to continue.'),
    ).toBeInTheDocument();
  });
  it('shows the banner when an API call said two-factor is required, until it is enabled', () => {
    useGlobalStore.setState({ twoFactorRequired: true });
    renderAt(<AccountOverviewPage />, { path: '/account' });
    expect(screen.getByText('2-Factor Required')).toBeInTheDocument();
    act(() => useGlobalStore.getState().updateUser({ useTotp: true }));
    expect(screen.queryByText('2-Factor Required')).not.toBeInTheDocument();
    useGlobalStore.setState({ twoFactorRequired: false });
  });
});

describe('UpdatePasswordForm', () => {
  it('is disabled while invalid and shows the messages once touched', async () => {
    renderAt(<UpdatePasswordForm />);
    const submit = screen.getByRole('button', { name: 'Update Password' });
    expect(submit).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Current Password'));
    await userEvent.tab();
    expect(await screen.findByText('You must provide your current password.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-password');
    await userEvent.type(screen.getByLabelText('New Password'), 'new-password');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'different');
    await userEvent.tab();
    expect(
      await screen.findByText('Password confirmation does not match the password you entered.'),
    ).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Confirm New Password'));
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'new-password');
    await waitFor(() => expect(submit).toBeEnabled());
  });

  it('is disabled while submitting', async () => {
    let release: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (release = resolve)));
    vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    renderAt(<UpdatePasswordForm />);
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-password');
    await userEvent.type(screen.getByLabelText('New Password'), 'new-password');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'new-password');
    const submit = screen.getByRole('button', { name: 'Update Password' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    await waitFor(() => expect(submit).toBeDisabled());
    release(new Response(null, { status: 204 }));
  });

  it('shows the new-password hint about uniqueness', () => {
    renderAt(<UpdatePasswordForm />);
    expect(screen.getByText(/unique to this website/)).toBeInTheDocument();
  });

  it('on success goes to /auth/login; on failure shows an Error flash', async () => {
    const stub = stubFetch([
      {
        status: 400,
        body: {
          errors: [
            {
              code: 'InvalidPasswordProvidedException',
              detail: 'The password provided was invalid for this account.',
            },
          ],
        },
      },
      { status: 204 },
      { status: 204 },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    const nav = vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    renderAt(<UpdatePasswordForm />);
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-password');
    await userEvent.type(screen.getByLabelText('New Password'), 'new-password');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(
      await screen.findByText('The password provided was invalid for this account.'),
    ).toBeInTheDocument();
    expect(nav).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(nav).toHaveBeenCalledWith('/auth/login'));
    expect(stub.calls[1]).toMatchObject({
      method: 'PUT',
      url: '/api/client/account/password',
      body: {
        current_password: 'old-password',
        password: 'new-password',
        password_confirmation: 'new-password',
      },
    });
  });
});

describe('UpdateEmailForm', () => {
  it('validates both fields', async () => {
    renderAt(<UpdateEmailForm />);
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'broken');
    await userEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('A valid email address must be provided.')).toBeInTheDocument();
    expect(screen.getByText('You must provide your current account password.')).toBeInTheDocument();
  });

  it('shows the success flash and resets the form', async () => {
    const stub = stubFetch([{ status: 204 }]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<UpdateEmailForm />);
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Your primary email has been updated.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
    expect(useGlobalStore.getState().user?.email).toBe('new@example.com');
    expect(stub.calls[0]!.body).toEqual({ email: 'new@example.com', password: 'secret' });
  });

  it('shows a failure titled Error', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 400,
          body: { errors: [{ detail: 'The password provided was invalid for this account.' }] },
        },
      ]).fn,
    );
    renderAt(<UpdateEmailForm />);
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'bad');
    await userEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(
      await screen.findByText('The password provided was invalid for this account.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});

describe('Two-factor', () => {
  const setup = {
    data: { image_url_data: 'otpauth://totp/Talon:alice?secret=ABCDEF&issuer=Talon', secret: 'ABCDEF' },
  };

  it('setup: QR code and secret, code validation, recovery codes shown in a modal that Escape cannot close', async () => {
    const tokens = ['aaaaaaaaaa', 'bbbbbbbbbb'];
    const stub = stubFetch([
      { status: 200, body: setup },
      { status: 200, body: { object: 'recovery_tokens', attributes: { tokens } } },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<TwoFactorPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable Two-Factor' });
    expect(await within(dialog).findByText('ABCDEF')).toBeInTheDocument();
    const img = await within(dialog).findByRole('img', {
      name: 'QR code to scan with an authenticator application',
    });
    expect(img).toHaveAttribute('width', '128');
    expect(img.getAttribute('src')).toContain(btoa(setup.data.image_url_data));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Enable Two-Factor' }));
    expect(
      await within(dialog).findByText('You must provide an authentication code to continue.'),
    ).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Authentication Code'), '12a');
    expect(within(dialog).getByText('Authenticator code must be 6 digits.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Authentication Code'));
    await userEvent.type(within(dialog).getByLabelText('Authentication Code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enable Two-Factor' }));

    const codes = await screen.findByRole('dialog', { name: 'Two-factor authentication enabled' });
    expect(within(codes).getByText('aaaaaaaaaa')).toBeInTheDocument();
    expect(stub.calls[1]!.body).toEqual({ code: '123456' });
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(screen.getByTestId('modal-background'));
    expect(screen.getByRole('dialog', { name: 'Two-factor authentication enabled' })).toBeInTheDocument();
    expect(useGlobalStore.getState().user?.useTotp).toBe(false);
    await userEvent.click(within(codes).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(useGlobalStore.getState().user?.useTotp).toBe(true);
    expect(screen.getByRole('button', { name: 'Disable' })).toBeInTheDocument();
  });

  it('setup: a wrong code shows the server error', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 200, body: setup },
        {
          status: 400,
          body: { errors: [{ detail: 'The provided two-factor authentication token was not valid.' }] },
        },
      ]).fn,
    );
    renderAt(<TwoFactorPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('ABCDEF');
    await userEvent.type(within(dialog).getByLabelText('Authentication Code'), '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enable Two-Factor' }));
    expect(
      await within(dialog).findByText('The provided two-factor authentication token was not valid.'),
    ).toBeInTheDocument();
  });

  it('disable: requires the password, then turns useTotp off', async () => {
    useGlobalStore.setState({ user: { ...user, useTotp: true } });
    const stub = stubFetch([{ status: 204 }]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<TwoFactorPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Two-Factor' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(
      await within(dialog).findByText('You must provide your current password in order to continue.'),
    ).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'my pass');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(useGlobalStore.getState().user?.useTotp).toBe(false));
    expect(stub.calls[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/client/account/two-factor?password=my+pass',
    });
  });
});
