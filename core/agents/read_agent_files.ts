import { join } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";
import { readFolders, type Reading } from "../files/recorded_file.ts";
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
  const reading: Reading = {
    source: AGENTS_SOURCE,
    file: "the agent definition",
    folder: "the agent definitions",
    maxBytes: MAX_AGENT_FILE,
    onNotice: place.onNotice,
  };
  const files = await readFolders(
    agentFolders(place),
    (entry) => (entry.isFile || entry.isSymlink) && entry.name.endsWith(".md"),
    join,
    reading,
  );
  for (const message of agentSet(files).diagnostics) place.onNotice(message);
  return files;
}
