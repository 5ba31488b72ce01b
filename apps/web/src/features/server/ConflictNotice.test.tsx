import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ConflictNotice } from './ConflictNotice.tsx';
import { statusText } from './HeaderCard.tsx';

// The notices with the spec's texts (the browser tests cover installing, restoring and
// suspended against the real panel; transfers have no panel side yet, so this one is here).
describe('ConflictNotice', () => {
  it.each([
    [
      { status: null, isTransferring: true },
      'Transferring',
      'Your server is being transfered to a new node, please check back later.',
    ],
    [
      { status: 'installing', isTransferring: false },
      'Running Installer',
      'Your server should be ready soon, please try again in a few minutes.',
    ],
    // No spec text for a failed install: it says so, and who can help (issue 24).
    [
      { status: 'install_failed', isTransferring: false },
      'Installation Failed',
      'This server could not be installed. Please contact your administrator.',
    ],
    [
      { status: 'reinstall_failed', isTransferring: false },
      'Installation Failed',
      'This server could not be installed. Please contact your administrator.',
    ],
    [
      { status: 'suspended', isTransferring: false },
      'Server Suspended',
      'This server is suspended and cannot be accessed.',
    ],
    [
      { status: 'restoring_backup', isTransferring: false },
      'Restoring from Backup',
      'Your server is currently being restored from a backup, please check back in a few minutes.',
    ],
  ])('%o → %s', (server, title, message) => {
    render(<ConflictNotice server={server} />);
    expect(screen.getByText(title)).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
  });

  it('renders nothing for a server without a conflict', () => {
    const { container } = render(<ConflictNotice server={{ status: null, isTransferring: false }} />);
    expect(container.textContent).toBe('');
  });
});

describe('statusText of a failed install', () => {
  const t = (key: string) => key;
  it('is "Install Failed" for a root admin on the console, not "Installing"', () => {
    const failed = { isInstalling: true, isTransferring: false, status: 'install_failed' };
    expect(statusText(t, true, failed, 'offline')).toBe('status.install_failed');
    expect(statusText(t, true, { ...failed, status: 'installing' }, 'offline')).toBe('status.installing');
    expect(statusText(t, false, failed, 'offline')).toBe('status.connecting');
  });
});
