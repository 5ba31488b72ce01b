/**
 * Finds where JSON text stops being valid. JSON.parse's messages differ between Node versions and
 * sometimes omit the position; people fixing an egg by hand need a line and column.
 */

const WS = new Set([' ', '\t', '\n', '\r']);

/** Offset of the first syntax error, or null when the text is valid JSON. */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const expect = (char: string) => (text[i] === char ? i++ : fail());
  const literal = (word: string) => {
    for (const char of word) expect(char);
  };
  const string = () => {
    expect('"');
    for (;;) {
      const char = text[i];
      if (char === undefined || char < ' ') fail();
      i++;
      if (char === '"') return;
      if (char === '\\') {
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/u.test(text[i] ?? '')) fail();
            i++;
          }
        } else if ('"\\/bfnrt'.includes(text[i] ?? 'x')) i++;
        else fail();
      }
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/u.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    skip();
    const char = text[i];
    if (char === '{') {
      i++;
      skip();
      if (text[i] === '}') return void i++;
      for (;;) {
        skip();
        string();
        skip();
        expect(':');
        value();
        skip();
        if (text[i] === ',') i++;
        else return void expect('}');
      }
    }
    if (char === '[') {
      i++;
      skip();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        skip();
        if (text[i] === ',') i++;
        else return void expect(']');
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    number();
  };
  try {
    value();
    skip();
    return i < text.length ? i : null;
  } catch (offset) {
    return offset as number;
  }
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
