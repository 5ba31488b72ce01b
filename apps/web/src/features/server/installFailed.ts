/**
 * Whether a server's last install (or reinstall) failed: the panel's `install_failed` and
 * `reinstall_failed` statuses. The spec counts `install_failed` as "installing" (isInstalling), but
 * nothing is running any more: the pages say it failed rather than "ready soon" (issue 24).
 */
export function installFailed(status: string | null | undefined): boolean {
  return status === 'install_failed' || status === 'reinstall_failed';
}
