import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { signInForTest, wireFieldError } from '../testing.ts';
import { SettingsPage } from './SettingsPage.tsx';

const settings = (environment: string[] = [], patch: Record<string, unknown> = {}) => ({
  object: 'settings',
  attributes: {
    app_name: 'Talon',
    two_factor: 'none',
    recaptcha: { enabled: false, site_key: '', secret_key_set: false },
    mail: {
      host: 'smtp.example.com',
      port: 587,
      encryption: 'tls',
      username: 'mailer',
      password_set: true,
      from_address: 'panel@example.com',
      from_name: null,
    },
    client_allocations: { enabled: false, range_start: null, range_end: null },
    avatars: { remote: false },
    ...patch,
  },
  meta: { environment },
});

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin settings', () => {
  it('shows a value set by environment read-only and leaves it, and empty secrets, out of the save', async () => {
    const fetch = stubFetch([
      { status: 200, body: settings(['mail.host', 'two_factor']) },
      { status: 200, body: settings(['mail.host', 'two_factor'], { app_name: 'My Hosting' }) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<SettingsPage />, { path: '/admin/settings' });

    const host = await screen.findByLabelText('SMTP host');
    expect(host).toHaveValue('smtp.example.com');
    expect(host).toHaveAttribute('readonly');
    expect(screen.getAllByText('Set by environment')).toHaveLength(2);
    expect(screen.getByText(/can only be changed there/)).toBeInTheDocument();
    expect(screen.getByLabelText('Require two-factor authentication')).toBeDisabled();
    expect(screen.getByLabelText('Site name')).not.toHaveAttribute('readonly');

    const save = screen.getByRole('button', { name: 'Save settings' });
    expect(save).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Site name'));
    await userEvent.type(screen.getByLabelText('Site name'), 'My Hosting');
    await userEvent.click(save);

    expect(await screen.findByText('The settings were saved.')).toBeInTheDocument();
    expect(fetch.calls[1]!.method).toBe('PATCH');
    expect(fetch.calls[1]!.url).toBe('/api/application/settings');
    expect(fetch.calls[1]!.body).toEqual({
      app_name: 'My Hosting',
      recaptcha: { enabled: false, site_key: '' },
      mail: {
        port: 587,
        encryption: 'tls',
        username: 'mailer',
        from_address: 'panel@example.com',
        from_name: null,
      },
      client_allocations: { enabled: false, range_start: null, range_end: null },
      avatars: { remote: false },
    });
    expect(useGlobalStore.getState().settings.name).toBe('My Hosting');
  });

  it('checks the form before sending: an empty site name and a port range turned on without ports', async () => {
    const fetch = stubFetch([{ status: 200, body: settings() }]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<SettingsPage />, { path: '/admin/settings' });
    await userEvent.clear(await screen.findByLabelText('Site name'));
    await userEvent.click(screen.getByLabelText('Let users add ports to their servers themselves'));
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The site name is required.')).toBeInTheDocument();
    expect(screen.getAllByText('Enter a port to turn this on.')).toHaveLength(2);
    // The form says which fields block the save, and the first one has the focus.
    expect(screen.getByText(/^Not saved:/)).toHaveTextContent(
      'Not saved: correct Site name, First port, and Last port first.',
    );
    expect(screen.getByLabelText('Site name')).toHaveFocus();
    expect(fetch.calls).toHaveLength(1);
    await userEvent.type(screen.getByLabelText('Site name'), 'Talon');
    expect(screen.getByText(/^Not saved:/)).toHaveTextContent(
      'Not saved: correct First port and Last port first.',
    );
    await userEvent.click(screen.getByLabelText('Let users add ports to their servers themselves'));
    expect(screen.queryByText(/^Not saved:/)).toBeNull();
  });

  it("puts the panel's 422 under the field it is about", async () => {
    const fetch = stubFetch([
      { status: 200, body: settings() },
      {
        status: 422,
        body: {
          errors: [
            wireFieldError(
              'mail.from_address',
              'email',
              'The mail.from address must be a valid email address.',
            ),
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<SettingsPage />, { path: '/admin/settings' });
    await userEvent.type(await screen.findByLabelText('Sender name'), 'Panel');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(
      await screen.findByText('The mail.from address must be a valid email address.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Sender address')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/^Not saved:/)).toHaveTextContent('Not saved: correct Sender address first.');
    expect(screen.getByLabelText('Sender address')).toHaveFocus();
    expect(screen.queryByText('The settings were saved.')).toBeNull();
  });

  it('sends a new mail password, or clears the stored one when asked', async () => {
    const fetch = stubFetch([
      { status: 200, body: settings() },
      { status: 200, body: settings() },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<SettingsPage />, { path: '/admin/settings' });
    expect(await screen.findByLabelText('Password')).toHaveAttribute(
      'placeholder',
      'Stored (leave empty to keep it)',
    );
    await userEvent.click(screen.getByLabelText('Remove the stored password'));
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('The settings were saved.');
    expect((fetch.calls[1]!.body as { mail: Record<string, unknown> }).mail).toMatchObject({
      password_clear: true,
    });
    expect((fetch.calls[1]!.body as { mail: Record<string, unknown> }).mail).not.toHaveProperty('password');
  });

  it("shows the SMTP server's answer to a test mail, and its refusal in words", async () => {
    const fetch = stubFetch([
      { status: 200, body: settings() },
      {
        status: 200,
        body: { object: 'mail_test', attributes: { ok: true, response: '250 2.0.0 OK: queued as 1A2B' } },
      },
      {
        status: 502,
        body: {
          errors: [
            {
              code: 'MailTransportException',
              status: '502',
              detail: '535 5.7.8 Authentication credentials invalid',
            },
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<SettingsPage />, { path: '/admin/settings' });
    fireEvent.change(await screen.findByLabelText('Send a test mail to'), {
      target: { value: 'ops@example.com' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('250 2.0.0 OK: queued as 1A2B')).toBeInTheDocument();
    expect(fetch.calls[1]).toMatchObject({
      method: 'POST',
      url: '/api/application/settings/mail/test',
      body: { to: 'ops@example.com' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('535 5.7.8 Authentication credentials invalid')).toBeInTheDocument();
    expect(screen.queryByText('250 2.0.0 OK: queued as 1A2B')).toBeNull();
  });
});
