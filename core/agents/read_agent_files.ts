import { join } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { pluginPartPaths } from "../files/plugin_root.ts";
import { readFolders, type Reading, readRecordedFile } from "../files/recorded_file.ts";
import { realRoots, startBounds } from "../files/start_bounds.ts";
import { readsSource } from "../files/file_place.ts";
import type { FilePlace } from "../mechanism.ts";
import { AGENTS_SOURCE, agentSet } from "./agent_set.ts";

/** Largest definition file rein records; a bigger one is reported and skipped. */
export const MAX_AGENT_FILE = 256 * 1024;

/** The definition folders of `place`, in precedence order: the project's, then the person's. */
export function agentFolders(place: FilePlace): string[] {
  const folders = [
    ...(readsSource(place, "project") ? [join(place.workspace, ".claude", "agents")] : []),
    ...(place.home && readsSource(place, "user") ? [join(place.home, ".claude", "agents")] : []),
  ];
  return [...new Set(folders)];
}

/**
 * Read every `*.md` of {@link agentFolders}, then of each of `place.plugins` (its `agents/` and the
 * paths its manifest adds, confined to its folder, recorded with its name), from disk, live only, in name order, and return the
 * text to record (source `agents`) of the definitions that can be used. A missing folder is
 * skipped quietly. Reported through `place.onNotice` with their path and never recorded: a file
 * that cannot be read, that leads (through a symbolic link) out of its root (the workspace for the
 * project's definitions, the home directory or `~/.claude` for the person's) or to a credential
 * store, that is not a regular file or is over {@link MAX_AGENT_FILE}, and a definition that
 * cannot be used (bad frontmatter, no name or description, a name already taken). The types are
 * derived from the record, by the same rules, in replay. Never throws.
 */
export async function readAgentFiles(place: FilePlace): Promise<RecordedFile[]> {
  const bounds = await startBounds(place);
  const reading: Reading = {
    source: AGENTS_SOURCE,
    file: "the agent definition",
    folder: "the agent definitions",
    maxBytes: MAX_AGENT_FILE,
    credentials: bounds.credentials,
    onNotice: place.onNotice,
  };
  const project = join(place.workspace, ".claude", "agents");
  const markdown = (entry: Deno.DirEntry) =>
    (entry.isFile || entry.isSymlink) && entry.name.endsWith(".md");
  const files = await readFolders(
    agentFolders(place).map((folder) => ({
      folder,
      roots: folder === project ? bounds.workspace : bounds.personal,
    })),
    markdown,
    join,
    reading,
  );
  // Each plugin's definitions, confined to its folder, named `<plugin>:<name>`.
  for (const plugin of place.plugins ?? []) {
    const roots = await realRoots(plugin.root);
    for (const path of pluginPartPaths(plugin, "agents")) {
      const read = path.endsWith(".md")
        ? await readRecordedFile(path, roots, reading).then((file) => file ? [file] : [])
        : await readFolders([{ folder: path, roots }], markdown, join, reading);
      files.push(...read.map((file) => ({ ...file, plugin: plugin.name })));
    }
  }
  const set = agentSet(files);
  for (const message of set.diagnostics) place.onNotice(message);
  const used = new Set(set.items.flatMap((agent) => agent.path === undefined ? [] : [agent.path]));
  return files.filter((file) => used.has(file.path));
}
