import type { Command } from './command.ts';

const RUN = 'npm run -s panel --';

/** `npm run -s panel -- --help`: every command with its summary. */
export function overview(commands: Record<string, Command>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length)) + 2;
  return [
    `Usage: ${RUN} <command> [options]`,
    '',
    'Operator tasks against the panel database named by the configuration (DATABASE_URL, DATA_DIR).',
    '`-s` keeps npm from printing its own lines, so a result can be captured:',
    `  KEY=$(${RUN} api-key:create --user admin --application)`,
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    '',
    `${RUN} <command> --help shows a command's options and an example.`,
  ].join('\n');
}

/** `npm run -s panel -- <command> --help`: usage, each option, an example. */
export function commandHelp(name: string, command: Command): string {
  const flag = (option: string) => {
    const o = command.options[option]!;
    return `--${option}${o.type === 'string' ? ' VALUE' : ''}`;
  };
  const flags = Object.keys(command.options).map(flag);
  const width = Math.max(0, ...flags.map((f) => f.length)) + 2;
  const lines = [
    `${command.summary}.`,
    '',
    `Usage: ${RUN} ${name}${command.usage ? ` ${command.usage}` : ''}`,
  ];
  if (flags.length > 0) {
    lines.push('', 'Options:');
    for (const option of Object.keys(command.options)) {
      lines.push(`  ${flag(option).padEnd(width)}${command.help[option] ?? ''}`);
    }
  }
  lines.push('', 'Example:', `  ${command.example}`);
  return lines.join('\n');
}
