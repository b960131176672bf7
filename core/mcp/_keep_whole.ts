import { dirname, join } from "../../events/posix_path.ts";

/**
 * Writes `text` whole at `path` (relative to `workspace`, its folder made when missing): where an
 * MCP answer or resource too long for the model is kept. The error when it could not be written;
 * undefined once it is.
 */
export async function keepWhole(
  workspace: string,
  path: string,
  text: string,
): Promise<unknown | undefined> {
  try {
    const full = join(workspace, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, text);
    return undefined;
  } catch (error) {
    return error;
  }
}
