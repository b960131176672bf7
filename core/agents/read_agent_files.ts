import { join } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";
import type { FilePlace } from "../mechanism.ts";
import { AGENTS_SOURCE, agentSet } from "./agent_set.ts";

/** Largest definition file rein records; a bigger one is reported and skipped. */
export const MAX_AGENT_FILE = 256 * 1024;

/** The definition folders of `place`, in precedence order: the project's, then the person's. */
export function agentFolders(place: FilePlace): string[] {
  const folders = [
    join(place.workspace, ".claude", "agents"),
    ...(place.home ? [join(place.home, ".claude", "agents")] : []),
  ];
  return [...new Set(folders)];
}

/**
 * Read every `*.md` of {@link agentFolders} from disk, live only, in name order, and return
 * their text to record (source `agents`). A missing folder is skipped quietly; a file that cannot
 * be read or is over {@link MAX_AGENT_FILE}, and a definition that cannot be used (bad
 * frontmatter, no name or description, a name already taken), are reported through
 * `place.onNotice` with their path. Unusable files are recorded all the same: the types are
 * derived from the record, by the same rules, in replay. Never throws.
 */
export async function readAgentFiles(place: FilePlace): Promise<RecordedFile[]> {
  const perFolder = await Promise.all(
    agentFolders(place).map((folder) => readFolder(folder, place.onNotice)),
  );
  const files = perFolder.flat();
  for (const message of agentSet(files).diagnostics) place.onNotice(message);
  return files;
}

async function readFolder(
  folder: string,
  onNotice: (message: string) => void,
): Promise<RecordedFile[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if ((entry.isFile || entry.isSymlink) && entry.name.endsWith(".md")) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
      onNotice(`Cannot read the agent definitions in "${folder}": ${reason(error)}`);
    }
    return [];
  }
  names.sort();
  const read = await Promise.all(names.map((name) => readFile(join(folder, name), onNotice)));
  return read.filter((file): file is RecordedFile => file !== undefined);
}

async function readFile(
  path: string,
  onNotice: (message: string) => void,
): Promise<RecordedFile | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    if (info.size > MAX_AGENT_FILE) {
      onNotice(
        `Skipped the agent definition at "${path}": it is ${info.size} bytes, over the ` +
          `${MAX_AGENT_FILE}-byte limit`,
      );
      return undefined;
    }
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
    return { source: AGENTS_SOURCE, path, text };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    onNotice(`Skipped the agent definition at "${path}": cannot read it: ${reason(error)}`);
    return undefined;
  }
}

function reason(error: unknown): string {
  if (error instanceof TypeError) return "it is not UTF-8 text";
  return error instanceof Error ? error.message : String(error);
}
