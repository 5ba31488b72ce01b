import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdminOverview } from '@talon/shared';
import type { OverviewRepository } from './overview.repository.ts';

/** The panel's version: its package's (apps/panel/package.json), read once. */
export const PANEL_VERSION = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The admin area's summary: version, counts and how far a fresh install has come. */
export class OverviewService {
  constructor(private readonly repo: OverviewRepository) {}

  async overview(): Promise<AdminOverview> {
    const [counts, nonAdmins] = await Promise.all([this.repo.counts(), this.repo.nonAdminUsers()]);
    return {
      version: PANEL_VERSION,
      counts,
      first_steps: {
        node_ready: counts.nodes > 0,
        egg_available: counts.eggs > 0,
        server_created: counts.servers > 0,
        user_invited: nonAdmins > 0,
      },
    };
  }
}
