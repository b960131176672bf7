import { basename, dirname } from "../../events/posix_path.ts";
import { frontmatterHint, frontmatterToolList, readFrontmatter } from "../files/frontmatter.ts";

/** A custom slash command: a `.claude/commands/**\/*.md` file's frontmatter and prompt. */
export interface Command {
  /** What `/name` calls it: the file's name without `.md` (subfolders do not change it). */
  name: string;
  /**
   * Whose it is: the project's `.claude/commands/`, the person's `~/.claude/commands/`, or a
   * plugin's (named `<plugin>:<file name>`).
   */
  scope: "project" | "user" | "plugin";
  /** The plugin it comes from, for a plugin's command. */
  plugin?: string;
  /** The subfolders it sits in under `commands/` (`frontend/api`), shown beside it; or "". */
  namespace: string;
  /** What `/help` shows (`description`, else the body's first line). */
  description: string;
  /** What it takes, shown beside its name (`argument-hint`). */
  argumentHint?: string;
  /** Rules its calls are pre-approved by while its turn runs (`allowed-tools`), as written. */
  allowedTools: string[];
  /** The model its turn asks for (`model`), as written. */
  model?: string;
  /** The prompt: the text after the frontmatter. */
  body: string;
  /** The file's absolute path. */
  path: string;
}

/** A command file parsed, or why it cannot be used. */
export type ParsedCommand = { ok: true; command: Command } | { ok: false; message: string };

/** Names `/name` can invoke: letters, digits, `-`, `_`, `.`, `:`; no spaces or slashes. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._:-]*$/u;
/** Where the folder of commands begins in a command file's path. */
const COMMANDS_FOLDER = "/.claude/commands/";

/**
 * Parse the command file at `path` (absolute, under a `.claude/commands/` folder) whose text is
 * `text`, as Claude Code reads it: optional YAML frontmatter between `---` lines with
 * `description`, `argument-hint`, `allowed-tools` (a list or a comma-separated text) and `model`;
 * other keys are ignored. `home`: the person's home directory, whose `.claude/commands/` holds
 * the user's commands. Pure; never throws: a file that cannot be used comes back with a message
 * naming its path and what is wrong.
 */
export function parseCommand(path: string, text: string, workspace: string): ParsedCommand {
  const fail = (why: string): ParsedCommand => ({
    ok: false,
    message: `Skipped the command at "${path}": ${why}`,
  });
  const name = basename(path).replace(/\.md$/i, "");
  if (!NAME.test(name)) {
    return fail(`its name ${JSON.stringify(name)} is not a name /name can invoke`);
  }
  const read = readFrontmatter(text);
  if (!read.ok) return fail(read.why);
  const { fields } = read;
  let body = read.body;
  body = body.replace(/^(?:[ \t]*\r?\n)+/, "");
  const description = fields["description"];
  if (description !== undefined && description !== null && typeof description !== "string") {
    return fail("its description is not a text");
  }
  const allowedTools = frontmatterToolList(fields["allowed-tools"]);
  if (allowedTools === undefined) {
    return fail("its allowed-tools is neither a list of tool rules nor a text");
  }
  const argumentHint = frontmatterHint(fields["argument-hint"]);
  if (argumentHint === null) return fail("its argument-hint is not a text");
  const model = fields["model"];
  if (model !== undefined && model !== null && typeof model !== "string") {
    return fail("its model is not a text");
  }
  const at = path.lastIndexOf(COMMANDS_FOLDER);
  const folder = at < 0 ? "" : dirname(path.slice(at + COMMANDS_FOLDER.length));
  const project = at >= 0 && path.slice(0, at) === workspace.replace(/\/+$/, "");
  return {
    ok: true,
    command: {
      name,
      scope: project ? "project" : "user",
      namespace: folder === "." ? "" : folder,
      description: typeof description === "string" && description.trim()
        ? description.trim()
        : firstLine(body),
      ...(argumentHint === undefined ? {} : { argumentHint }),
      allowedTools,
      ...(typeof model === "string" && model.trim() ? { model: model.trim() } : {}),
      body,
      path,
    },
  };
}

/** The body's first non-empty line, without a leading `#`, cut to 100 characters. Pure. */
function firstLine(body: string): string {
  const line = body.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find(Boolean) ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
