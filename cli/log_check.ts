import type { CommandIo } from "./io.ts";
import { assertLogExists } from "./log_commands.ts";
import { checkedLines, describeProblem } from "./log_problems.ts";

/**
 * `rein log check [log]`: print every problem of the log with its line as it is found (lines
 * that are not events, seq gaps and duplicates, a torn last line, lines from a newer rein,
 * payloads the projections reject) and a summary; 0 when the log is clean, 1 otherwise. Reads
 * the log (twice); never writes it.
 */
export async function logCheckCommand(path: string, io: CommandIo): Promise<number> {
  await assertLogExists(path);
  let lines = 0;
  let problems = 0;
  let first: { line: number; events: number } | undefined;
  for await (const { raw, problem } of checkedLines(path)) {
    lines = raw.number;
    if (problem === undefined) continue;
    problems++;
    first ??= { line: problem.line, events: problem.line - 1 };
    io.stdout.write(`${describeProblem(problem)}\n`);
  }
  if (first === undefined) {
    io.stdout.write(`"${path}": ${count(lines, "event")}, no problems\n`);
    return 0;
  }
  io.stdout.write(
    `"${path}": ${count(lines, "line")}, ${count(problems, "problem")}, the first at line ` +
      `${first.line}\n` +
      `rein reads no further than line ${first.line - 1}. \`rein log salvage "${path}"\` keeps ` +
      `the ${
        count(first.events, "event")
      } before line ${first.line} as the log and sets the rest ` +
      `aside in a file beside it (after a backup of the whole file); or start another log with ` +
      `--log PATH\n`,
  );
  return 1;
}

/** `n` and a noun, plural unless n is 1: `3 events`. Pure. */
export function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
