import { basename } from "../../events/posix_path.ts";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { errorMessage, formatNumber, plural } from "./_format.ts";
import { GrepOutput } from "./_grep_output.ts";
import { readAll, ReadCancelled } from "./_handle_io.ts";
import { openVerified, type RefusalReason } from "./_safe_open.ts";
import { decodeText } from "./_text_file.ts";
import type { WalkedFile } from "./_walk.ts";
import { pathAlias, readDeniedNote, type ReadDenySource, searchedNames } from "./read_deny.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { closedPaths, resolveInWorkspace } from "./workspace_path.ts";

/** Files larger than this are skipped (they are rarely source and would crowd the output). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Files are matched in batches of about this many characters: one ripgrep run per batch. */
const BATCH_CHARS = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    pattern: z.string().min(1).describe(
      'JavaScript regular expression to search for, e.g. "function\\s+\\w+" or "TODO|FIXME"',
    ),
    path: z.string().optional().describe(
      "File or directory to search, relative to the workspace root (default: the workspace root)",
    ),
    glob: z.string().optional().describe(
      'Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (matched against file names) or "src/**/*.ts" (matched against paths relative to path)',
    ),
    ignore_case: z.boolean().optional().describe("Match case-insensitively (default false)"),
    output_mode: z.enum(["files_with_matches", "content", "count"]).optional().describe(
      '"files_with_matches" (default) lists the files that match; "content" shows matching lines as path:line:text; "count" shows path:count per file',
    ),
    context: z.number().int().min(0).max(50).optional().describe(
      "Lines of context to show before and after each match (content mode only; default 0)",
    ),
    head_limit: z.number().int().min(1).optional().describe(
      "Show only the first N entries: lines in content mode, files otherwise",
    ),
  });
}

/** Input of the grep tool. */
export type GrepInput = z.infer<ReturnType<typeof inputSchema>>;

/** What the grep tool needs from its surroundings. */
export interface GrepToolDeps {
  /** Directory that relative paths resolve against and that every path must stay inside. */
  workspace: string;
  /**
   * The ripgrep command that matches lines ("rg", looked up on PATH, by default), or null to
   * match with JavaScript's engine in a Worker (also used when ripgrep is missing).
   */
  ripgrep?: string | null;
  /** A search still running after this many milliseconds is stopped (default 30 s). */
  timeoutMs?: number;
  /**
   * Which files the session's deny rules keep the agent from reading: they are not searched (and
   * a note says how many). Without it, every file is searched.
   */
  readDenied?: ReadDenySource;
  /** rein's own paths (`.rein/`), never searched, but for `openPaths` in them (its memory). */
  protectedPaths?: readonly string[];
  openPaths?: readonly string[];
}

const description =
  `Searches file contents with a regular expression, across the workspace or below a path.

- pattern is a JavaScript regular expression matched against each line (escape regex characters for a literal search: "\\(" for "(", "\\." for "."). Matches do not span lines.
- output_mode "files_with_matches" (the default) lists matching files; "content" shows each matching line as path:line:text (with context lines as path-line-text and "--" between separate groups when context is set); "count" shows path:count.
- Narrow the search with path (a file or directory) and glob ("*.ts", "*.{ts,tsx}", "src/**/*.ts"), and use head_limit to see only the first entries.
- Files ignored by .gitignore (root and nested; a directory named in path is searched even if ignored), .git/, .rein/, binary files and files over 10 MB are skipped. Results are in path order, relative to the workspace root.
- Output is capped at about 30,000 characters, with a note of how much was left out.
- Use this instead of running grep or rg through bash.`;

/** Creates the tool that searches file contents with a regular expression. Read-only. */
export function createGrepTool(deps: GrepToolDeps): Tool<GrepInput> {
  return {
    name: "grep",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("grep"),
    kind: "effect",
    readOnly: true,
    claudeNames: ["Grep"],
    claudeFields: { ignore_case: "-i", context: "-C" },
    pathFields: ["path"],
    permission: "read-only",
    summarize: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    run: (input, context) => grep(deps, input, context),
  };
}

async function grep(
  deps: GrepToolDeps,
  input: GrepInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stop = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
  // picomatch, the walker (with `ignore`) and the matcher load on the first search.
  const [{ default: picomatch }, { walkFiles }, { LineMatcher, PatternRefused, SearchStopped }] =
    await Promise.all([
      // @ts-types="@types/picomatch"
      import("picomatch"),
      import("./_walk.ts"),
      import("./_line_matcher.ts"),
    ]);
  const created = await LineMatcher.create({
    pattern: input.pattern,
    ignoreCase: input.ignore_case ?? false,
    ripgrep: deps.ripgrep === undefined ? "rg" : deps.ripgrep,
  }, stop).catch((error) => error instanceof SearchStopped ? null : Promise.reject(error));
  if (created === null) return stopped(context, timeoutMs, 0);
  if (typeof created === "string") return { content: created, isError: true };
  using matcher = created;

  let fileFilter: ((file: WalkedFile, searchRelative: string) => boolean) | undefined;
  if (input.glob !== undefined) {
    const glob = input.glob;
    try {
      const isMatch = picomatch(glob, { dot: true });
      fileFilter = glob.includes("/")
        ? (_file, searchRelative) => isMatch(searchRelative)
        : (file) => isMatch(basename(file.relative));
    } catch (error) {
      return { content: `Invalid glob "${glob}": ${errorMessage(error)}`, isError: true };
    }
  }

  const target = await resolveInWorkspace(deps.workspace, input.path ?? ".");
  if (!target.ok) return { content: target.message, isError: true };
  const root = target.root;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(target.path);
  } catch (error) {
    const content = error instanceof Deno.errors.NotFound
      ? `Path not found: ${target.relative}`
      : `Cannot search "${target.relative}": ${errorMessage(error)}`;
    return { content, isError: true };
  }

  const closedAt = await closedPaths(deps.workspace, deps.protectedPaths ?? [], deps.openPaths);
  const closed = (where: string) => closedAt(where, "read");
  const refusal = closed(target.path);
  if (refusal !== undefined) {
    return { content: refusal.replace(/^Refusing to read/, "Refusing to search"), isError: true };
  }
  const judge = deps.readDenied
    ? await deps.readDenied(context.view(), context.session, "grep", context.agent)
    : null;
  // A path through a symlink is judged by its name as written, and each file by its real path.
  const alias = judge ? pathAlias(root, input.path ?? ".", target.relative) : undefined;
  if (
    !info.isDirectory && judge?.(searchedNames(root, {
      relative: target.relative,
      realPath: target.path,
    }, alias))
  ) {
    return {
      content: `Cannot search "${input.path}": a Read deny rule covers the file`,
      isError: true,
    };
  }
  const files: AsyncIterable<WalkedFile> | WalkedFile[] = info.isDirectory
    ? walkFiles({ root, start: target.path, signal: stop })
    : [{ path: target.path, realPath: target.path, relative: target.relative }];
  const prefix = info.isDirectory && target.relative !== "." ? `${target.relative}/` : "";
  const output = new GrepOutput({
    mode: input.output_mode ?? "files_with_matches",
    context: input.context ?? 0,
    headLimit: input.head_limit,
  });
  const skipped = { "hard-links": 0, moved: 0, protected: 0 };
  let batch: TextFile[] = [];
  let batchChars = 0;
  let searched = 0;
  let denied = 0;
  const flush = async () => {
    const found = await matcher.match(batch.flatMap((file) => file.lines), stop);
    addMatches(output, batch, found);
    searched += batch.length;
    batch = [];
    batchChars = 0;
  };
  try {
    for await (const file of files) {
      if (stop.aborted) break;
      const searchRelative = info.isDirectory
        ? file.relative.slice(prefix.length)
        : basename(file.relative);
      if (fileFilter && !fileFilter(file, searchRelative)) continue;
      if (judge?.(searchedNames(root, file, alias))) {
        denied++;
        continue;
      }
      if (closed(file.realPath) !== undefined) {
        skipped.protected++;
        continue;
      }
      const text = await textLines(root, file, stop, closed);
      if (text === "cancelled") break;
      if (typeof text === "string") skipped[text]++;
      else if (text !== null) {
        batch.push(text);
        batchChars += text.chars;
        if (batchChars >= BATCH_CHARS) await flush();
      }
    }
    if (!stop.aborted && batch.length > 0) await flush();
  } catch (error) {
    if (error instanceof PatternRefused) return { content: error.message, isError: true };
    if (!(error instanceof SearchStopped)) throw error;
  }
  if (stop.aborted) return stopped(context, timeoutMs, searched);
  const note = [skippedNote(skipped), denied > 0 ? readDeniedNote(denied, "searched") : ""]
    .filter(Boolean).join("\n");
  if (output.isEmpty) {
    const where = target.relative === "." ? "" : ` in ${target.relative}`;
    const content = `No matches for /${input.pattern}/${where}`;
    return { content: note ? `${content}\n${note}` : content, isError: false };
  }
  const content = output.render();
  return { content: note ? `${content}\n${note}` : content, isError: false };
}

/** A file's text split into lines (carriage returns dropped), ready to match. */
interface TextFile {
  relative: string;
  lines: string[];
  chars: number;
}

/** Gives each file of the batch its matches; `found` indexes the batch's lines, ascending. */
function addMatches(output: GrepOutput, batch: readonly TextFile[], found: readonly number[]) {
  let next = 0;
  let start = 0;
  for (const file of batch) {
    const end = start + file.lines.length;
    const matching: number[] = [];
    while (next < found.length && (found[next] ?? end) < end) {
      matching.push((found[next] ?? 0) - start);
      next++;
    }
    if (matching.length > 0) output.addFile(file.relative, file.lines, matching);
    start = end;
  }
}

/**
 * The file's lines, read through a verified handle; null for binary, non-UTF-8, oversized or
 * unreadable files; the reason for a file refused as possibly outside the workspace.
 */
async function textLines(
  root: string,
  file: WalkedFile,
  signal: AbortSignal,
  closed: (where: string) => string | undefined,
): Promise<TextFile | RefusalReason | "cancelled" | null> {
  const opened = await openVerified({
    workspace: root,
    root,
    path: file.realPath,
    display: file.relative,
    purpose: "read",
    closed,
  });
  if (!opened.ok) return opened.problem === "refused" ? opened.reason : null;
  await using verified = opened;
  if (verified.stats.size > MAX_FILE_BYTES) return null;
  try {
    const decoded = decodeText(await readAll(verified.handle, verified.stats.size, signal));
    if (!decoded.ok) return null;
    const lines = decoded.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return {
      relative: file.relative,
      lines: lines.map((line) => line.replace(/\r$/, "")),
      chars: decoded.text.length,
    };
  } catch (error) {
    return error instanceof ReadCancelled ? "cancelled" : null;
  }
}

/** "[2 files not searched: …]" for files refused as possibly outside the workspace. Pure. */
function skippedNote(skipped: Record<RefusalReason, number>): string {
  const notes: string[] = [];
  if (skipped["hard-links"] > 0) {
    notes.push(
      `[${plural(skipped["hard-links"], "file")} not searched: each has several hard links, so ` +
        "it may be a file outside the workspace]",
    );
  }
  if (skipped.moved > 0) {
    notes.push(
      `[${plural(skipped.moved, "file")} not searched: changed while being opened, so it may ` +
        "lead outside the workspace]",
    );
  }
  if (skipped.protected > 0) {
    notes.push(
      `[${plural(skipped.protected, "file")} not searched: symbolic links into rein's event ` +
        "log directory (.rein/), which the file tools do not read]",
    );
  }
  return notes.join("\n");
}

function stopped(context: ToolCallContext, timeoutMs: number, searched: number): ToolResult {
  if (context.signal.aborted) {
    return { content: "Search cancelled", isError: true, cancelled: true };
  }
  return {
    content: `Search stopped after ${seconds(timeoutMs)} without finishing ` +
      `(${plural(searched, "file")} searched): the pattern may be too slow or the tree too ` +
      "large; narrow path or glob, or simplify the pattern",
    isError: true,
  };
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${formatNumber(Math.round(ms / 1000))} s` : `${ms} ms`;
}
