/**
 * Environment variable names an egg variable may not have. Each of them makes a standard program
 * (the dynamic loader, the C library, a POSIX shell, Node) load code or read files from a place the
 * value names, before the program itself has a say: an egg variable `LD_PRELOAD=./x.so` once ran a
 * library from the server's directory as root in the host's `sh` and `bwrap`. The daemon hands a
 * server's environment only to the game, after the privilege drop; this list is the second wall,
 * shared by the panel (which refuses the names with a 422) and the daemon (which drops them from
 * what any panel sends). Names are compared upper-cased, as the daemon upper-cases them.
 */

/** Whole families: every name with one of these prefixes. */
const PREFIXES: Record<string, string> = {
  // ld.so: LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT load libraries; LD_DEBUG_OUTPUT, LD_PROFILE write files.
  LD_: 'the dynamic loader reads it (it can load a library into every program)',
  // glibc's malloc tunables (MALLOC_CHECK_, MALLOC_TRACE writes a file, MALLOC_ARENA_MAX…).
  MALLOC_: "the C library's allocator reads it",
};

/** Single names, with why (the C-library ones are glibc's own list of variables unsafe for privileged programs). */
const NAMES: Record<string, string> = {
  GLIBC_TUNABLES: 'the C library reads it (CVE-2023-4911 was an overflow in its parser)',
  GCONV_PATH: 'the C library loads character-set modules from it',
  GETCONF_DIR: 'the C library reads program paths from it',
  HOSTALIASES: 'the C library resolver reads a file it names',
  LOCALDOMAIN: 'the C library resolver reads it',
  RES_OPTIONS: 'the C library resolver reads it',
  RESOLV_HOST_CONF: 'the C library resolver reads a file it names',
  NIS_PATH: 'the C library reads it',
  LOCPATH: 'the C library loads locale data from it',
  NLSPATH: 'the C library loads message catalogues from it',
  TZDIR: 'the C library reads time-zone files from it',
  // Shells: a non-interactive bash sources BASH_ENV, an interactive sh sources ENV; SHELLOPTS and
  // BASHOPTS switch options (xtrace) on at start, PS4 is expanded (command substitution included)
  // for every traced command, PROMPT_COMMAND runs, IFS changes how every command line is split.
  BASH_ENV: 'bash runs the file it names at start',
  ENV: 'sh runs the file it names at start',
  SHELLOPTS: 'bash reads shell options from it',
  BASHOPTS: 'bash reads shell options from it',
  PS4: 'a tracing shell runs the commands in it',
  PROMPT_COMMAND: 'bash runs it',
  IFS: 'a shell splits every command with it',
  // Node: --require/--import load any module (the panel and daemon are Node programs).
  NODE_OPTIONS: 'Node reads options from it (--require loads any file)',
  // Perl: -M options load any module into every perl (tools such as some install helpers).
  PERL5OPT: 'perl reads options from it (-M loads any module)',
};

/** Why `name` is refused as an environment variable name, or null when it is allowed. */
export function forbiddenEnvironmentName(name: string): string | null {
  const upper = name.toUpperCase();
  const exact = NAMES[upper];
  if (exact) return exact;
  for (const [prefix, why] of Object.entries(PREFIXES)) if (upper.startsWith(prefix)) return why;
  return null;
}

/** The message the panel and the daemon give for a refused name. */
export function forbiddenEnvironmentMessage(name: string): string | null {
  const why = forbiddenEnvironmentName(name);
  return why ? `"${name}" cannot be an environment variable name: ${why}` : null;
}
