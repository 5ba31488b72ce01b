import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAdmin } from '../../../test-support/database-hosts.ts';
import { scramVerifier } from './scram.ts';

describe('scramVerifier', () => {
  it('is exactly what PostgreSQL stores for the same password, salt and iterations', async () => {
    const admin = postgresAdmin();
    const c = new pg.Client({
      host: admin.host,
      port: admin.port,
      user: admin.username,
      password: admin.password,
      database: 'postgres',
    });
    await c.connect();
    const role = `talon_scram_${Math.random().toString(36).slice(2, 8)}`;
    const password = 'Ab3!x@y=z.w+q^r9K2m4N6p8';
    try {
      await c.query("SET password_encryption = 'scram-sha-256'");
      await c.query(`CREATE ROLE ${c.escapeIdentifier(role)} PASSWORD ${c.escapeLiteral(password)}`);
      const { rows } = await c.query<{ rolpassword: string }>(
        'SELECT rolpassword FROM pg_authid WHERE rolname = $1',
        [role],
      );
      const stored = rows[0]?.rolpassword ?? '';
      const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/u.exec(stored);
      expect(m).not.toBeNull();
      expect(scramVerifier(password, Buffer.from(m?.[2] ?? '', 'base64'), Number(m?.[1]))).toBe(stored);
    } finally {
      await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(role)}`);
      await c.end();
    }
  });

  it('uses a new salt each time', () => {
    expect(scramVerifier('same')).not.toBe(scramVerifier('same'));
  });
});
