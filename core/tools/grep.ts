import { basename } from "node:path";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { errorMessage } from "./_format.ts";
import { GrepOutput } from "./_grep_output.ts";
import { decodeText } from "./_text_file.ts";
import type { WalkedFile } from "./_walk.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { resolveInWorkspace } from "./workspace_path.ts";

/** Files larger than this are skipped (they are rarely source and would crowd the output). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

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
    summarize: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
    run: (input, context) => grep(deps.workspace, input, context),
  };
}

async function grep(
  workspace: string,
  input: GrepInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const regex = compile(input.pattern, input.ignore_case ? "i" : "");
  if (typeof regex === "string") return { content: regex, isError: true };
  // picomatch, the walker (with `ignore`) and the regex check load on the first search.
  const [{ default: picomatch }, { walkFiles }, { default: isSafeRegex }] = await Promise.all([
    // @ts-types="@types/picomatch"
    import("picomatch"),
    import("./_walk.ts"),
    import("safe-regex2"),
  ]);
  // JavaScript's regex engine backtracks: a nested quantifier such as (a+)+$ can take exponential
  // time on one line, and no signal can interrupt a running match. Such patterns are refused.
  if (!isSafeRegex(regex)) {
    return {
      content: `Pattern /${input.pattern}/ could take exponential time (a quantifier inside a ` +
        "repeated group): rewrite it without nested repetition, e.g. (a+)+ as a+",
      isError: true,
    };
  }
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

  const root = await resolveInWorkspace(workspace, ".");
  const target = await resolveInWorkspace(workspace, input.path ?? ".");
  if (!root.ok) return { content: root.message, isError: true };
  if (!target.ok) return { content: target.message, isError: true };
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(target.path);
  } catch (error) {
    const content = error instanceof Deno.errors.NotFound
      ? `Path not found: ${target.relative}`
      : `Cannot search "${target.relative}": ${errorMessage(error)}`;
    return { content, isError: true };
  }

  const files: AsyncIterable<WalkedFile> | WalkedFile[] = info.isDirectory
    ? walkFiles({ root: root.path, start: target.path, signal: context.signal })
    : [{ path: target.path, realPath: target.path, relative: target.relative }];
  const prefix = info.isDirectory && target.relative !== "." ? `${target.relative}/` : "";
  const output = new GrepOutput({
    mode: input.output_mode ?? "files_with_matches",
    context: input.context ?? 0,
    headLimit: input.head_limit,
  });
  for await (const file of files) {
    if (context.signal.aborted) break;
    const searchRelative = info.isDirectory
      ? file.relative.slice(prefix.length)
      : basename(file.relative);
    if (fileFilter && !fileFilter(file, searchRelative)) continue;
    const lines = await textLines(file.realPath);
    if (!lines) continue;
    const matchingLines: number[] = [];
    lines.forEach((line, index) => {
      if (regex.test(line)) matchingLines.push(index);
    });
    if (matchingLines.length > 0) output.addFile(file.relative, lines, matchingLines);
  }
  if (context.signal.aborted) return { content: "Search cancelled", isError: true };
  if (output.isEmpty) {
    const where = target.relative === "." ? "" : ` in ${target.relative}`;
    return { content: `No matches for /${input.pattern}/${where}`, isError: false };
  }
  return { content: output.render(), isError: false };
}

/**
 * Compiles the model's pattern with the `u` flag (so `\p{L}` and astral characters work), falling
 * back to legacy syntax for patterns only it accepts, such as `\-` outside a class.
 */
function compile(pattern: string, flags: string): RegExp | string {
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      const detail = errorMessage(error).replace(/^Invalid regular expression: \/.*\/\w*: /, "");
      return `Invalid regular expression "${pattern}": ${detail}`;
    }
  }
}

/** The file's lines, or null for binary, non-UTF-8, oversized or unreadable files. */
async function textLines(path: string): Promise<string[] | null> {
  try {
    if ((await Deno.stat(path)).size > MAX_FILE_BYTES) return null;
    const decoded = decodeText(await Deno.readFile(path));
    if (!decoded.ok) return null;
    const lines = decoded.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.map((line) => line.replace(/\r$/, ""));
  } catch {
    return null;
  }
}
