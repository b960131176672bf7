import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { CommandInvoked, CommandShellRun } from "../../events/event_types.ts";
import { isInside } from "../files/is_inside.ts";
import { readConfined } from "../files/read_confined.ts";
import type { Command } from "./command.ts";

/** Bytes of one `@file` a command inlines at most. */
export const MAX_INLINED_FILE = 100_000;

/**
 * `args` split as a shell would into words (`$1`, `$2`…): at blanks, with single and double
 * quotes keeping blanks in a word (and dropped). Pure.
 */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of args.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/**
 * A command's body with its arguments put in, as Claude Code does: every `$ARGUMENTS` is `args`
 * (trimmed), `$1`…`$9` the words of {@link splitArguments} (empty past the last). A body with
 * neither gets `ARGUMENTS: args` appended when `args` is not blank. Pure.
 */
export function substituteArguments(body: string, args: string): string {
  const trimmed = args.trim();
  const words = splitArguments(trimmed);
  const uses = /\$ARGUMENTS|\$[1-9]/.test(body);
  const text = body.trimEnd()
    .replaceAll("$ARGUMENTS", () => trimmed)
    .replace(/\$([1-9])(?![0-9])/g, (_, n: string) => words[Number(n) - 1] ?? "");
  return uses || trimmed === "" ? text : `${text}\n\nARGUMENTS: ${trimmed}`;
}

/** `` !`cmd` `` at a line's start or after a blank: a command to run before the prompt. */
const SHELL = /(^|[ \t])!`([^`\n]+)`/gm;
/** `@path` at a line's start or after a blank (`user@host` is no reference). */
const FILE = /(^|[ \t(])@([^\s`'"()<>]+[^\s`'"()<>.,;:!?])/gm;

/** The `` !`cmd` `` commands of `text`, in order. Pure. */
export function shellLines(text: string): string[] {
  return [...text.matchAll(SHELL)].map((match) => match[2] ?? "");
}

/** What expanding a command needs from the live world. */
export interface ExpandDeps {
  /** The workspace: `@path` is read only inside it. */
  workspace: string;
  /** Never read, wherever a path leads (credential stores). */
  credentials: readonly string[];
  /**
   * Why `command` may not run (no rule allows it, a deny rule), or undefined when it may: the
   * session's rules with the command's `allowed-tools` pre-approving, as a call of the turn.
   */
  refuse(command: string): string | undefined;
  /** Run `command` as the bash tool runs a call (sandboxed): its output. */
  run(command: string): Promise<{ output: string; isError: boolean }>;
}

/**
 * What running `command` with `args` becomes, to record (`command.invoked`): its body with the
 * arguments put in (see {@link substituteArguments}), each `` !`cmd` `` replaced by what `cmd`
 * printed (each allowed first by `deps.refuse`: the first refused refuses the whole command and
 * nothing runs), and the text of each `@path` that names a file inside the workspace (a relative
 * path from the workspace; read through `readConfined`, at most {@link MAX_INLINED_FILE} bytes)
 * appended under a line naming it. A reference to nothing is left as written. Reads and runs;
 * never throws.
 */
export async function expandCommand(
  command: Command,
  args: string,
  deps: ExpandDeps,
): Promise<CommandInvoked> {
  const base = {
    name: command.name,
    arguments: args.trim(),
    path: command.path,
    allowedTools: command.allowedTools,
  };
  const substituted = substituteArguments(command.body, args);
  for (const line of shellLines(substituted)) {
    const why = deps.refuse(line);
    if (why !== undefined) {
      return {
        ...base,
        shell: [],
        files: [],
        prompt: "",
        refused: `Cannot run /${command.name}: its line !\`${line}\` is not allowed (${why}); ` +
          `add a rule for it to the command's allowed-tools (Bash(${line}))`,
      };
    }
  }
  const shell: CommandShellRun[] = [];
  for (const line of shellLines(substituted)) {
    const ran = await deps.run(line);
    shell.push({ command: line, output: ran.output, isError: ran.isError });
  }
  let index = 0;
  const ran = substituted.replace(SHELL, (_, before: string) => {
    const run = shell[index++];
    return `${before}${run?.output.trimEnd() ?? ""}`;
  });
  const files: string[] = [];
  const inlined: string[] = [];
  const workspace = resolve(deps.workspace);
  for (const match of ran.matchAll(FILE)) {
    const written = match[2] ?? "";
    const path = isAbsolute(written) ? written : resolve(workspace, written);
    if (!isInside(workspace, path) || files.includes(path)) continue;
    const read = await readConfined(path, {
      roots: [workspace, await realOr(workspace)],
      credentials: deps.credentials,
      maxBytes: MAX_INLINED_FILE,
    });
    if (!read.ok) continue;
    const text = new TextDecoder().decode(read.bytes.slice(0, MAX_INLINED_FILE));
    if (text.includes("\0")) continue;
    files.push(path);
    const cut = read.bytes.length > MAX_INLINED_FILE ? "\n(cut: the file is longer)" : "";
    inlined.push(`Contents of ${relative(workspace, path)}:\n\n${text.trimEnd()}${cut}`);
  }
  const prompt = [ran, ...inlined].join("\n\n");
  return { ...base, shell, files, prompt };
}

async function realOr(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}
