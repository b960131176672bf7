import { basename, dirname, join, relative } from "../../events/posix_path.ts";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { countLines, errorMessage, plural } from "./_format.ts";
import { readAll, replaceContent } from "./_handle_io.ts";
import { isInside } from "../files/is_inside.ts";
import { type OpenVerified, openVerified } from "./_safe_open.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { judgedProtectedPath } from "./_judged_path.ts";
import { fileSeen, readBeforeEditRefusal, seenAfterWrite } from "./file_reads.ts";
import {
  guardedFolder,
  guardedReason,
  protectedPathMessage,
  resolveInWorkspace,
} from "./workspace_path.ts";

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    path: z.string().min(1).describe(
      "Path of the file to write, relative to the workspace root (absolute paths must lie inside the workspace)",
    ),
    content: z.string().describe("The complete new content of the file"),
  });
}

/** Input of the write_file tool. */
export type WriteFileInput = z.infer<ReturnType<typeof inputSchema>>;

/** What the write_file tool needs from its surroundings. */
export interface WriteFileToolDeps {
  /** Directory that relative paths resolve against and that every path must stay inside. */
  workspace: string;
  /** rein's own paths (its event log and the log's directory): never written. */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` the tool may still write (the agent's memory). */
  openPaths?: readonly string[];
}

const description =
  `Writes a file in the workspace, replacing all of its content, or creates it (with any missing parent directories).

- Paths are relative to the workspace root; absolute paths are accepted only inside the workspace.
- To change part of an existing file, prefer edit_file: it sends only the changed text and cannot drop the rest of the file by accident. When you do overwrite an existing file, read it first.
- content is written exactly as given (UTF-8); include the final newline if the file should end with one.
- Do not create documentation or README files unless asked to.`;

/** Creates the tool that creates or overwrites a whole file. */
export function createWriteFileTool(deps: WriteFileToolDeps): Tool<WriteFileInput> {
  return {
    name: "write_file",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("write_file"),
    kind: "effect",
    readOnly: false,
    claudeNames: ["Write"],
    claudeFields: { path: "file_path" },
    pathFields: ["path"],
    permission: "edit",
    summarize: (input) => input.path,
    run: (input, context) => writeFile(deps, input, context),
  };
}

async function writeFile(
  deps: WriteFileToolDeps,
  input: WriteFileInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { workspace, protectedPaths = [], openPaths = [] } = deps;
  const resolved = await resolveInWorkspace(workspace, input.path);
  if (!resolved.ok) return { content: resolved.message, isError: true };
  const refusal = await protectedPathMessage(
    workspace,
    resolved.path,
    protectedPaths,
    "write",
    openPaths,
  );
  if (refusal !== undefined) return { content: refusal, isError: true };
  const display = resolved.relative;
  // A file in .claude/ or .git/ is written only where the gate asked a person about this one.
  const allowed = judgedProtectedPath(context, resolved.root);
  const folder = guardedFolder(resolved.root, resolved.path);
  if (folder !== undefined && resolved.path !== allowed) {
    return {
      content: `Refusing to write "${display}": ${guardedReason(folder)}`,
      isError: true,
    };
  }
  const target = {
    workspace,
    root: resolved.root,
    display,
    purpose: "write" as const,
    protectedPaths,
    openPaths,
    guarded: { allowed },
    checkedPath: resolved.path,
  };

  // The content goes through the verified handle, in place: renaming a temporary file over the
  // name would be another lookup by name (a directory swapped meanwhile would take the file
  // outside the workspace), and would drop the file's mode, owner and inode. The cost: a crash
  // in the middle of the write leaves the file part-written, as Deno.writeFile would.
  let opened: OpenVerified | undefined;
  let existed = true;
  for (let attempt = 0; attempt < 3; attempt++) {
    opened = await openVerified({ ...target, path: resolved.path });
    if (opened.ok || opened.problem !== "not-found") break;
    const parent = await realParent(resolved.root, resolved.path);
    if (typeof parent !== "string") return parent;
    existed = false;
    opened = await openVerified({ ...target, path: parent, create: true });
    if (opened.ok || opened.problem !== "exists") break;
    existed = true;
  }
  if (opened === undefined || !opened.ok) {
    switch (opened?.problem) {
      case "directory":
        return { content: `Cannot write "${display}": it is a directory`, isError: true };
      case "special":
        return {
          content:
            `"${display}" is not a regular file (${opened.kind}); write_file writes files only`,
          isError: true,
        };
      case "refused":
      case "error":
        return { content: opened.message, isError: true };
      default:
        return {
          content: `Cannot write "${display}": it kept changing while being opened`,
          isError: true,
        };
    }
  }
  await using file = opened;
  // Claude Code's read before edit: an existing file is replaced only as the agent read it.
  const unread = existed
    ? await readBeforeEditRefusal(
      context,
      fileSeen(resolved.path, file.stats),
      () => currentBytes({ ...target, path: resolved.path, purpose: "read" }, context.signal),
    )
    : undefined;
  if (unread !== undefined) return { content: unread, isError: true };
  const bytes = new TextEncoder().encode(input.content);
  try {
    await replaceContent(file.handle, bytes);
  } catch (error) {
    return { content: `Cannot write "${display}": ${errorMessage(error)}`, isError: true };
  }
  const size = `${plural(countLines(input.content), "line")} (${plural(bytes.length, "byte")})`;
  return {
    content: existed
      ? `Wrote ${size} to ${display}, replacing its previous content`
      : `Wrote ${size} to new file ${display}`,
    isError: false,
    ...await seenAfterWrite(context, resolved.path, file.handle, bytes),
  };
}

/**
 * Creates the missing parent directories of `path` and gives the path of the file under its
 * parent's real path, checked to be inside the workspace, or the refusal. The file itself is
 * then created with O_EXCL and checked through its handle.
 */
async function realParent(root: string, path: string): Promise<string | ToolResult> {
  const shown = relative(root, path);
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    const parent = await Deno.realPath(dirname(path));
    if (isInside(root, parent)) return join(parent, basename(path));
    return {
      content: `Refusing to write "${shown}": its directory now leads to ${parent}, outside the ` +
        "workspace (a directory was swapped for a symbolic link)",
      isError: true,
    };
  } catch (error) {
    return { content: `Cannot write "${shown}": ${errorMessage(error)}`, isError: true };
  }
}

/**
 * The file's bytes now, through a handle of its own opened for reading (the write handle is
 * write-only): what read before edit hashes when only the file's modification time changed.
 */
async function currentBytes(
  options: Parameters<typeof openVerified>[0],
  signal: AbortSignal,
): Promise<Uint8Array> {
  const opened = await openVerified(options);
  if (!opened.ok) throw new Error(`Cannot read the file again: ${opened.problem}`);
  await using file = opened;
  return await readAll(file.handle, file.stats.size, signal);
}
