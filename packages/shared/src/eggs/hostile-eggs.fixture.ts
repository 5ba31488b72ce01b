// Test data shared by the egg-limit tests of the parser (packages/shared) and of the panel's
// import route: hostile egg files that must be refused before any parser expands them.

/** The classic alias bomb: nine levels of nine aliases, a billion strings once expanded. */
export function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 10; level++) {
    const [prev, name] = [String.fromCharCode(96 + level), String.fromCharCode(97 + level)];
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  }
  return `meta: { version: PTDL_v2 }\n${lines.join('\n')}\n`;
}
