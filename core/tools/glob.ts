import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { errorMessage, formatNumber, plural } from "./_format.ts";
import { pathAlias, readDeniedNote, type ReadDenySource, searchedNames } from "./read_deny.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { closedPaths, resolveInWorkspace } from "./workspace_path.ts";

const MAX_RESULTS = 200;

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    pattern: z.string().min(1).describe(
      'Glob pattern matched against paths relative to the search directory, e.g. "**/*.ts" or "src/**/*.{js,jsx}"',
    ),
    path: z.string().optional().describe(
      "Directory to search in, relative to the workspace root (default: the workspace root)",
    ),
  });
}

/** Input of the glob tool. */
export type GlobInput = z.infer<ReturnType<typeof inputSchema>>;

/** What the glob tool needs from its surroundings. */
export interface GlobToolDeps {
  /** Directory that relative paths resolve against and that every path must stay inside. */
  workspace: string;
  /**
   * Which files the session's deny rules keep the agent from reading: they are not listed (and a
   * note says how many matched). Without it, every matching file is listed.
   */
  readDenied?: ReadDenySource;
  /** rein's own paths (`.rein/`), never listed, but for `openPaths` in them (its memory). */
  protectedPaths?: readonly string[];
  openPaths?: readonly string[];
}

const description =
  `Finds files by name with a glob pattern and lists their paths, most recently modified first.

- Patterns use glob syntax: \`*\` matches within one path segment, \`**\` across directories, \`{a,b}\` alternatives, \`[abc]\` character sets. \`*.ts\` matches only at the top of the search directory; use \`**/*.ts\` for any depth.
- The pattern is matched against paths relative to \`path\` (default: the workspace root); the results are relative to the workspace root.
- Files ignored by .gitignore (the root one and nested ones) are left out, unless path or the pattern's leading directories name an ignored directory explicitly; .git/ and .rein/ are always left out. Hidden files are included.
- At most ${MAX_RESULTS} paths are listed, with a note of how many were left out; narrow the pattern or path when that happens.
- Use this to find files by name; use grep to search inside files.`;

/** Creates the tool that lists files matching a glob pattern. Read-only. */
export function createGlobTool(deps: GlobToolDeps): Tool<GlobInput> {
  return {
    name: "glob",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("glob"),
    kind: "effect",
    readOnly: true,
    // Claude Code's LS lists a folder; rein lists with glob.
    claudeNames: ["Glob", "LS"],
    pathFields: ["path"],
    permission: "read-only",
    guidance: "Use glob and grep to find things, read_file to read them; use bash for builds, " +
      "tests, git and anything else a shell does. Don't use bash to read or search files when a " +
      "dedicated tool fits.",
    summarize: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    run: (input, context) => glob(deps, input, context),
  };
}

async function glob(
  deps: GlobToolDeps,
  input: GlobInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { workspace } = deps;
  const pattern = input.pattern.replace(/^\.\//, "");
  if (pattern.startsWith("/") || pattern.split("/").includes("..")) {
    return {
      content: `Pattern "${input.pattern}" must be relative to the search directory; ` +
        "use path to search elsewhere in the workspace",
      isError: true,
    };
  }
  const root = await resolveInWorkspace(workspace, ".");
  const dir = await resolveInWorkspace(workspace, input.path ?? ".");
  if (!root.ok) return { content: root.message, isError: true };
  if (!dir.ok) return { content: dir.message, isError: true };
  const notDirectory = await checkDirectory(dir.path, dir.relative);
  if (notDirectory) return { content: notDirectory, isError: true };

  // picomatch and the walker (with `ignore`) load on the first search, not at start-up.
  const [{ default: picomatch }, { walkFiles }] = await Promise.all([
    // @ts-types="@types/picomatch"
    import("picomatch"),
    import("./_walk.ts"),
  ]);
  let isMatch: (path: string) => boolean;
  try {
    isMatch = picomatch(pattern, { dot: true });
  } catch (error) {
    return {
      content: `Invalid glob pattern "${input.pattern}": ${errorMessage(error)}`,
      isError: true,
    };
  }
  // Walk only below the pattern's literal prefix ("src" for "src/**/*.ts").
  const base = picomatch.scan(pattern).base;
  const start = await resolveInWorkspace(dir.path, base || ".");
  if (!start.ok) return { content: `No files match "${input.pattern}"`, isError: false };
  const prefix = dir.relative === "." ? "" : `${dir.relative}/`;

  const closedAt = await closedPaths(deps.workspace, deps.protectedPaths ?? [], deps.openPaths);
  const closed = (where: string) => closedAt(where, "read") !== undefined;
  const judge = deps.readDenied
    ? await deps.readDenied(context.view(), context.session, "glob", context.agent)
    : null;
  // A directory reached through a symlink is judged by its name as written too.
  const alias = judge ? pathAlias(root.path, input.path ?? ".", dir.relative) : undefined;

  const matches: { relative: string; mtime: number }[] = [];
  let hardLinked = 0;
  let denied = 0;
  for await (
    const file of walkFiles({ root: root.path, start: start.path, signal: context.signal })
  ) {
    if (!isMatch(file.relative.slice(prefix.length))) continue;
    if (judge?.(searchedNames(root.path, file, alias))) {
      denied++;
      continue;
    }
    // rein's own files (`.rein/`, reached by path or through a symbolic link) are not listed.
    if (closed(file.realPath)) continue;
    const info = await statOrNull(file.realPath);
    // A second name could be anywhere, even outside the workspace: such files are left out.
    if (info?.isFile && (info.nlink ?? 1) > 1) hardLinked++;
    else matches.push({ relative: file.relative, mtime: info?.mtime?.getTime() ?? 0 });
  }
  if (context.signal.aborted) {
    return { content: "Search cancelled", isError: true, cancelled: true };
  }
  const notes = [
    hardLinked === 0 ? "" : `[${plural(hardLinked, "matching file")} left out: each has ` +
      "several hard links, so it may be a file outside the workspace]",
    denied === 0 ? "" : readDeniedNote(denied, "listed"),
  ];
  const note = notes.filter(Boolean).join("\n") || undefined;
  if (matches.length === 0) {
    const where = dir.relative === "." ? "" : ` in ${dir.relative}`;
    const content = `No files match "${input.pattern}"${where}`;
    return { content: note ? `${content}\n${note}` : content, isError: false };
  }
  matches.sort((a, b) => b.mtime - a.mtime || (a.relative < b.relative ? -1 : 1));
  const shown = matches.slice(0, MAX_RESULTS).map((match) => match.relative);
  if (matches.length > MAX_RESULTS) {
    shown.push(
      `[… ${plural(matches.length - MAX_RESULTS, "more file")} not shown (${
        formatNumber(matches.length)
      } matched); narrow the pattern or path]`,
    );
  }
  if (note) shown.push(note);
  return { content: shown.join("\n"), isError: false };
}

async function checkDirectory(path: string, display: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    return info.isDirectory
      ? null
      : `"${display}" is a file, not a directory; path must be a directory`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return `Directory not found: ${display}`;
    return `Cannot search "${display}": ${errorMessage(error)}`;
  }
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch {
    return null;
  }
}
