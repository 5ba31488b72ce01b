import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useGlobalStore } from '../../app/store.ts';
import { fullPage } from '../../lib/navigation.ts';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { CheckpointPage } from './CheckpointPage.tsx';
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
import { LoginPage } from './LoginPage.tsx';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';
import { AuthNotFound } from './AuthNotFound.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useGlobalStore.setState({
    flashes: [],
    settings: { ...useGlobalStore.getState().settings, recaptcha: { enabled: false, siteKey: '' } },
  });
});

describe('LoginPage', () => {
  it('shows the spec messages for empty fields and sends nothing', async () => {
    const stub = stubFetch([]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<LoginPage />, { path: '/auth/login' });
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('A username or email must be provided.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your account password.')).toBeInTheDocument();
    expect(stub.calls).toHaveLength(0);
  });

  it('shows a field error only once the field was touched', async () => {
    vi.stubGlobal('fetch', stubFetch([]).fn);
    renderAt(<LoginPage />, { path: '/auth/login' });
    const user = screen.getByLabelText('Username or Email');
    await userEvent.click(user);
    expect(screen.queryByText('A username or email must be provided.')).not.toBeInTheDocument();
    await userEvent.tab();
    expect(await screen.findByText('A username or email must be provided.')).toBeInTheDocument();
    expect(screen.queryByText('Please enter your account password.')).not.toBeInTheDocument();
  });

  it('shows the server error as an Error flash', async () => {
    const stub = stubFetch([
      { status: 204 },
      {
        status: 400,
        body: {
          errors: [
            {
              code: 'DisplayException',
              status: '400',
              detail: 'No account matching those credentials could be found.',
            },
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<LoginPage />, { path: '/auth/login' });
    await userEvent.type(screen.getByLabelText('Username or Email'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByText('No account matching those credentials could be found.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(stub.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /sanctum/csrf-cookie',
      'POST /auth/login',
    ]);
    expect(stub.calls[1]!.body).toEqual({ user: 'admin', password: 'wrong' });
  });

  it('goes to the intended address after a complete login', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([{ status: 204 }, { status: 200, body: { data: { complete: true, intended: '/' } } }]).fn,
    );
    const nav = vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    renderAt(<LoginPage />, { path: '/auth/login' });
    await userEvent.type(screen.getByLabelText('Username or Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(nav).toHaveBeenCalledWith('/'));
  });

  it('goes to the checkpoint with the confirmation token', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 204 },
        { status: 200, body: { data: { complete: false, confirmation_token: 'tok' } } },
      ]).fn,
    );
    const { router } = renderAt(<LoginPage />, { path: '/auth/login' });
    await userEvent.type(screen.getByLabelText('Username or Email'), 'a');
    await userEvent.type(screen.getByLabelText('Password'), 'b');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login/checkpoint'));
    expect(router.state.location.state).toEqual({ token: 'tok', next: null });
  });

  it('reports a login answer that is not an object', async () => {
    vi.stubGlobal('fetch', stubFetch([{ status: 204 }, { status: 200, body: 'nonsense' }]).fn);
    renderAt(<LoginPage />, { path: '/auth/login' });
    await userEvent.type(screen.getByLabelText('Username or Email'), 'a');
    await userEvent.type(screen.getByLabelText('Password'), 'b');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByText('An error occurred while processing the login request.'),
    ).toBeInTheDocument();
  });

  it('does not load the captcha script when captcha is disabled', () => {
    vi.stubGlobal('fetch', stubFetch([]).fn);
    renderAt(<LoginPage />, { path: '/auth/login' });
    expect(document.querySelector('script[src*="recaptcha"]')).toBeNull();
  });

  it('loads the captcha script and requires a token when enabled', async () => {
    const stub = stubFetch([]);
    vi.stubGlobal('fetch', stub.fn);
    useGlobalStore.setState({
      settings: { ...useGlobalStore.getState().settings, recaptcha: { enabled: true, siteKey: 'site' } },
    });
    renderAt(<LoginPage />, { path: '/auth/login' });
    expect(document.querySelector('script[src*="recaptcha"]')).not.toBeNull();
    await userEvent.type(screen.getByLabelText('Username or Email'), 'a');
    await userEvent.type(screen.getByLabelText('Password'), 'b');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Please complete the captcha challenge to continue.')).toBeInTheDocument();
    expect(stub.calls).toHaveLength(0);
    document.querySelector('script[src*="recaptcha"]')?.remove();
  });
});

describe('CheckpointPage', () => {
  it('redirects to login without a token', async () => {
    const { router } = renderAt(<CheckpointPage />, { path: '/auth/login/checkpoint' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
  });

  it('toggles between code and recovery code, clearing both', async () => {
    renderAt(<CheckpointPage />, { path: '/auth/login/checkpoint', state: { token: 'tok' } });
    await userEvent.type(screen.getByLabelText('Authentication Code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Lost Device' }));
    const recovery = screen.getByLabelText('Recovery Code');
    expect(recovery).toHaveValue('');
    await userEvent.type(recovery, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'I Have My Device' }));
    expect(screen.getByLabelText('Authentication Code')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Lost Device' }));
    expect(screen.getByLabelText('Recovery Code')).toHaveValue('');
  });

  it('sends the code, or the recovery token only when given', async () => {
    const stub = stubFetch([
      { status: 400, body: { errors: [{ detail: 'The two-factor authentication token was invalid.' }] } },
      { status: 200, body: { data: { complete: true, intended: '/' } } },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    const nav = vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    renderAt(<CheckpointPage />, { path: '/auth/login/checkpoint', state: { token: 'tok' } });
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('An authentication code is required.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Authentication Code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The two-factor authentication token was invalid.')).toBeInTheDocument();
    expect(stub.calls[0]!.body).toEqual({ confirmation_token: 'tok', authentication_code: '111111' });

    await userEvent.click(screen.getByRole('button', { name: 'Lost Device' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('A recovery code is required.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Recovery Code'), 'rec0very12');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(nav).toHaveBeenCalledWith('/'));
    expect(stub.calls[1]!.body).toEqual({
      confirmation_token: 'tok',
      authentication_code: '',
      recovery_token: 'rec0very12',
    });
  });
});

describe('ForgotPasswordPage', () => {
  it('validates the email', async () => {
    renderAt(<ForgotPasswordPage />, { path: '/auth/password' });
    expect(screen.getByRole('link', { name: 'Return to Login' })).toHaveAttribute('href', '/auth/login');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(
      await screen.findByText('A valid email address must be provided to continue.'),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.getByText('A valid email address must be provided to continue.')).toBeInTheDocument();
  });

  it('shows the status as a Success flash', async () => {
    const stub = stubFetch([
      { status: 204 },
      { status: 200, body: { status: 'We have e-mailed your password reset link!' } },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<ForgotPasswordPage />, { path: '/auth/password' });
    await userEvent.type(screen.getByLabelText('Email'), 'user@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('We have e-mailed your password reset link!')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(stub.calls[1]!.body).toEqual({ email: 'user@example.com' });
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it('shows a failure as an Error flash', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([{ status: 204 }, { status: 429, body: { errors: [{ detail: 'Too Many Attempts.' }] } }]).fn,
    );
    renderAt(<ForgotPasswordPage />, { path: '/auth/password' });
    await userEvent.type(screen.getByLabelText('Email'), 'user@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('Too Many Attempts.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});

describe('ResetPasswordPage', () => {
  const routes = [{ path: '/auth/password/reset/:token', element: <ResetPasswordPage /> }];

  it('takes the email from the query string and validates the passwords', async () => {
    renderAt(<ResetPasswordPage />, { path: '/auth/password/reset/t0k?email=me%40example.com', routes });
    expect(screen.getByLabelText('Email')).toHaveValue('me@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('A new password is required.')).toBeInTheDocument();
    expect(screen.getByText('Your new password does not match.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New Password'), 'short');
    expect(
      await screen.findByText('Your new password should be at least 8 characters in length.'),
    ).toBeInTheDocument();
  });

  it('posts the reset and goes to /', async () => {
    const stub = stubFetch([
      { status: 204 },
      { status: 200, body: { success: true, redirect_to: '/', send_to_login: false } },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    const nav = vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    renderAt(<ResetPasswordPage />, { path: '/auth/password/reset/t0k?email=me%40example.com', routes });
    await userEvent.type(screen.getByLabelText('New Password'), 'newpassword');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'newpassword');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(nav).toHaveBeenCalledWith('/'));
    expect(stub.calls[1]!.body).toEqual({
      email: 'me@example.com',
      token: 't0k',
      password: 'newpassword',
      password_confirmation: 'newpassword',
    });
  });
});

describe('AuthNotFound', () => {
  it('offers a way back to login', async () => {
    const { router } = renderAt(<AuthNotFound />, { path: '/auth/whatever' });
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
  });
});
