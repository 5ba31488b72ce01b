import type { ParseArgsConfig } from 'node:util';
import type { AppContext } from '../context.ts';
import type { ActivityActor } from '../modules/activity/activity.service.ts';
import type { ListParams } from '../modules/application/listing.ts';
import { HttpError } from '../http/errors.ts';

/** A refusal the CLI prints as `<command>: <message>` (exit 1). */
export class CliError extends Error {}

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One `npm run panel -- <name>` command: what `--help` shows, how it parses, what it does. */
export interface Command {
  summary: string;
  /** The flags after the command name, e.g. `--user U --password P`. */
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** One line per option: what it means (every option has one; a test checks). */
  help: Record<string, string>;
  /** A complete command line as an operator would type it. */
  example: string;
  run: (ctx: AppContext, values: Values) => Promise<number>;
}

/** How commands appear in activity logs: no user, no key, no address (the operator's shell). */
export const CLI_ACTOR: ActivityActor = { userId: null, apiKeyId: null, ip: null };

export function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliError(`--${name} is required`);
  return v;
}

export function optional(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A positive database id given as `--<name>`, or null when the value is not one. */
export function idOf(value: string): number | null {
  return /^\d{1,9}$/u.test(value) && Number(value) > 0 ? Number(value) : null;
}

/**
 * The services' refusals (in use, not found, validation) as the CLI's one-line errors, with the
 * API's own words.
 */
export async function refusalsAsCliErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof HttpError) throw new CliError(e.detail);
    throw e;
  }
}

/** Every row of a list, in id order, optionally matching `search` (the API's `search=`). */
export function everything(search: { text?: string; columns: string[] } = { columns: [] }): ListParams {
  const text = search.text?.trim() ?? '';
  return {
    page: { page: 1, perPage: 100_000 },
    filters: [],
    sorts: [],
    search: text === '' ? null : { text, columns: search.columns },
  };
}

/** Rows as aligned columns, a header first; `empty` when there are none. */
export function printTable(header: string[], rows: string[][], empty: string): void {
  if (rows.length === 0) {
    console.log(empty);
    return;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}
