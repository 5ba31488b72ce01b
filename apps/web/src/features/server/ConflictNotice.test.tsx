import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ConflictNotice } from './ConflictNotice.tsx';

// The four notices with the spec's texts (the browser tests cover installing, restoring and
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
    [
      { status: 'install_failed', isTransferring: false },
      'Running Installer',
      'Your server should be ready soon, please try again in a few minutes.',
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
