/** Turns a `JSON.parse` failure into a reason and a line and column a person can find. */

/** Why some text is not JSON, and where, when the place is known. */
export interface JsonError {
  /** The parser's message without its own position or echo of the text. */
  reason: string;
  /** 1-based line and column (in UTF-16 code units) of the offending character. */
  position?: { line: number; column: number };
}

const AT_POSITION = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/;
const ECHOED_TEXT = /^(Unexpected token '[\s\S]+?'), "[\s\S]*" is not valid JSON$/;

/**
 * Describes `error`, thrown by `JSON.parse(text)`. The position comes from the parser's
 * message when it gives one, else from scanning `text` for the first character that breaks
 * the JSON grammar. Pure; never throws.
 */
export function describeJsonError(text: string, error: unknown): JsonError {
  const message = error instanceof Error ? error.message : String(error);
  const atPosition = AT_POSITION.exec(message);
  const reason = escapeControls(
    message.replace(AT_POSITION, "").replace(ECHOED_TEXT, "$1"),
  );
  const offset = atPosition ? Number(atPosition[1]) : firstErrorOffset(text);
  return offset === undefined ? { reason } : { reason, position: lineAndColumn(text, offset) };
}

/**
 * `text` parsed as JSON (a leading byte order mark dropped, as some Windows editors write one),
 * or why not in one line: "Cannot parse WHAT in "PATH" at line L, column C: reason". Pure.
 */
export function parseJsonText(
  text: string,
  what: string,
  path: string,
): { ok: true; json: unknown } | { ok: false; message: string } {
  const plain = text.replace(/^\uFEFF/, "");
  try {
    return { ok: true, json: JSON.parse(plain) };
  } catch (error) {
    const { reason, position } = describeJsonError(plain, error);
    const where = position ? ` at line ${position.line}, column ${position.column}` : "";
    return { ok: false, message: `Cannot parse ${what} in "${path}"${where}: ${reason}` };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

/** A newline quoted in a message would break it across lines. */
function escapeControls(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f]/g, (char) => JSON.stringify(char).slice(1, -1));
}

class Stop {
  constructor(readonly offset: number) {}
}

/**
 * The offset of the first character of `text` that breaks the JSON grammar (`text.length` when
 * the text ends too soon), or `undefined` when the text is valid JSON or nested too deeply to
 * scan.
 */
export function firstErrorOffset(text: string): number | undefined {
  let at = 0;
  const stop = (): never => {
    throw new Stop(at);
  };
  const isDigit = () => at < text.length && text[at]! >= "0" && text[at]! <= "9";
  const digits = () => {
    if (!isDigit()) stop();
    while (isDigit()) at++;
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const expect = (char: string) => {
    if (text[at] !== char) stop();
    at++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const char = text[at];
      if (char === undefined || char < " ") stop();
      at++;
      if (char === '"') return;
      if (char !== "\\") continue;
      const escape = text[at];
      if (escape !== undefined && '"\\/bfnrt'.includes(escape)) at++;
      else if (escape === "u") {
        at++;
        for (let i = 0; i < 4; i++) {
          if (!/[0-9a-fA-F]/.test(text[at] ?? "")) stop();
          at++;
        }
      } else stop();
    }
  };
  const number = () => {
    if (text[at] === "-") at++;
    if (text[at] === "0") at++;
    else digits();
    if (text[at] === ".") {
      at++;
      digits();
    }
    if (text[at] === "e" || text[at] === "E") {
      at++;
      if (text[at] === "+" || text[at] === "-") at++;
      digits();
    }
  };
  const sequence = (close: string, item: () => void) => {
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[at] === close) {
        at++;
        return;
      }
      expect(",");
    }
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === "{") {
      sequence("}", () => {
        space();
        string();
        space();
        expect(":");
        value();
      });
    } else if (char === "[") sequence("]", value);
    else if (char === '"') string();
    else if (char === "-" || isDigit()) number();
    else {
      const word = ["true", "false", "null"].find((word) => word[0] === char);
      if (word === undefined) stop();
      for (const letter of word ?? "") expect(letter);
    }
  };
  try {
    value();
    space();
    if (at < text.length) stop();
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.offset;
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
