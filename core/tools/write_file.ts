import { dirname } from "node:path";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { countLines, errorMessage, plural } from "./_format.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolResult, Zod } from "./tool.ts";
import { protectedPathMessage, resolveInWorkspace, specialFileKind } from "./workspace_path.ts";

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
    summarize: (input) => input.path,
    run: (input) => writeFile(deps.workspace, deps.protectedPaths ?? [], input),
  };
}

async function writeFile(
  workspace: string,
  protectedPaths: readonly string[],
  input: WriteFileInput,
): Promise<ToolResult> {
  const resolved = await resolveInWorkspace(workspace, input.path);
  if (!resolved.ok) return { content: resolved.message, isError: true };
  const refusal = await protectedPathMessage(workspace, resolved.path, protectedPaths, "write");
  if (refusal !== undefined) return { content: refusal, isError: true };
  const display = resolved.relative;
  let existed: boolean;
  try {
    const info = await Deno.stat(resolved.path);
    if (info.isDirectory) {
      return { content: `Cannot write "${display}": it is a directory`, isError: true };
    }
    const kind = specialFileKind(info);
    if (kind !== undefined) {
      return {
        content: `"${display}" is not a regular file (${kind}); write_file writes files only`,
        isError: true,
      };
    }
    existed = true;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return { content: `Cannot write "${display}": ${errorMessage(error)}`, isError: true };
    }
    existed = false;
  }

  const bytes = new TextEncoder().encode(input.content);
  try {
    await Deno.mkdir(dirname(resolved.path), { recursive: true });
    await Deno.writeFile(resolved.path, bytes);
  } catch (error) {
    return { content: `Cannot write "${display}": ${errorMessage(error)}`, isError: true };
  }
  const size = `${plural(countLines(input.content), "line")} (${plural(bytes.length, "byte")})`;
  return {
    content: existed
      ? `Wrote ${size} to ${display}, replacing its previous content`
      : `Wrote ${size} to new file ${display}`,
    isError: false,
  };
}
