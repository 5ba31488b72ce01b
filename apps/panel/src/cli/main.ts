import { parseArgs } from 'node:util';
import { bootstrap } from '../bootstrap.ts';
import { ConfigError } from '../config/config.ts';
import type { AppContext } from '../context.ts';
import { ValidationFailed } from '../http/errors.ts';
import { CliError, commands } from './commands.ts';
import { commandHelp, overview } from './help.ts';
import { pino } from 'pino';

/** `npm run panel -- <command> [flags]`: operator tasks against the configured database. */
async function main(argv: string[]) {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(overview(commands));
    return 0;
  }
  const command = name ? commands[name] : undefined;
  if (!command) {
    // Not on stdout: a script capturing a result must not take the usage for one.
    console.error(`${name ? `Unknown command "${name}".\n\n` : ''}${overview(commands)}`);
    return name ? 2 : 0;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(name!, command));
    return 0;
  }
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }));
  } catch (e) {
    console.error(`${name}: ${(e as Error).message}\n\n${commandHelp(name!, command)}`);
    return 2;
  }
  let ctx: AppContext | undefined;
  try {
    // Logs go to stderr: stdout carries only a command's result (api-key:create prints just the key).
    ctx = await bootstrap({ log: pino({ level: 'warn' }, pino.destination(2)) });
    return await command.run(ctx, values);
  } catch (e) {
    if (e instanceof ValidationFailed)
      console.error(`${name}: ${e.failures.map((f) => f.detail).join('\n')}`);
    else if (e instanceof ConfigError || e instanceof CliError) console.error(`${name}: ${e.message}`);
    else console.error(e);
    return 1;
  } finally {
    await ctx?.db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
