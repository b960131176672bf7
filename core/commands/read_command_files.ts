import { join } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import {
  folderNames,
  type Reading,
  readRecordedFile,
  type RootedFolder,
} from "../files/recorded_file.ts";
import { pluginPartPaths } from "../files/plugin_root.ts";
import { realRoots, startBounds } from "../files/start_bounds.ts";
import type { FilePlace } from "../mechanism.ts";
import { readsSource } from "../files/file_place.ts";
import { COMMANDS_SOURCE, commandSet } from "./command_set.ts";

/** Largest command file rein records; a bigger one is reported and skipped. */
export const MAX_COMMAND_FILE = 256 * 1024;

/** How deep subfolders of `commands/` are looked into (`a/b/c.md` is two deep). */
const MAX_DEPTH = 4;

/**
 * The command folders of `place`, in precedence order: the project's `.claude/commands/`, then
 * the person's `~/.claude/commands/` (once, when the workspace is the home directory). Pure.
 */
export function commandFolders(place: FilePlace): string[] {
  const folders = [
    ...(readsSource(place, "project") ? [join(place.workspace, ".claude", "commands")] : []),
    ...(place.home && readsSource(place, "user") ? [join(place.home, ".claude", "commands")] : []),
  ];
  return [...new Set(folders)];
}

/**
 * Read every `*.md` file under {@link commandFolders} (subfolders too, at most four deep, names
 * in order), then those of each of `place.plugins` (its `commands/` and the paths its manifest
 * adds, confined to the plugin's folder, recorded with its name) from disk, live only, and return the text to record (source `commands`) of the
 * commands that can be used. A missing folder is skipped quietly; reported through
 * `place.onNotice` and never recorded: a folder or file that cannot be read, that leads (through
 * a symbolic link) out of its root (the workspace for the project's, the home directory or
 * `~/.claude` for the person's) or to a credential store, one over {@link MAX_COMMAND_FILE}, and
 * a command that cannot be used (bad frontmatter, a name already taken). Never throws.
 */
export async function readCommandFiles(place: FilePlace): Promise<RecordedFile[]> {
  const bounds = await startBounds(place);
  const notices: string[] = [];
  const reading: Reading = {
    source: COMMANDS_SOURCE,
    file: "the command",
    folder: "the commands",
    maxBytes: MAX_COMMAND_FILE,
    credentials: bounds.credentials,
    onNotice: (message) => notices.push(message),
  };
  const files: RecordedFile[] = [];
  const project = join(place.workspace, ".claude", "commands");
  for (const folder of commandFolders(place)) {
    const roots = folder === project ? bounds.workspace : bounds.personal;
    files.push(...await readTree({ folder, roots }, reading, 0));
  }
  for (const plugin of place.plugins ?? []) {
    const roots = await realRoots(plugin.root);
    for (const path of pluginPartPaths(plugin, "commands")) {
      const read = path.toLowerCase().endsWith(".md")
        ? await readRecordedFile(path, roots, reading).then((file) => file ? [file] : [])
        : await readTree({ folder: path, roots }, reading, 0);
      files.push(...read.map((file) => ({ ...file, plugin: plugin.name })));
    }
  }
  for (const message of notices) place.onNotice(message);
  const set = commandSet(files, place.workspace);
  for (const message of set.diagnostics) place.onNotice(message);
  const used = new Set(set.items.map((command) => command.path));
  return files.filter((file) => used.has(file.path));
}

/** The `.md` files of `folder` (names in order), then those of its subfolders, in order. */
async function readTree(
  { folder, roots }: RootedFolder,
  reading: Reading,
  depth: number,
): Promise<RecordedFile[]> {
  const files: RecordedFile[] = [];
  const kinds = new Map<string, boolean>();
  const names = await folderNames({ folder, roots }, (entry) => {
    const markdown = (entry.isFile || entry.isSymlink) && entry.name.toLowerCase().endsWith(".md");
    if (markdown) kinds.set(entry.name, true);
    else if (entry.isDirectory && !entry.name.startsWith(".")) kinds.set(entry.name, false);
    return kinds.has(entry.name);
  }, reading);
  for (const name of names) {
    if (!kinds.get(name)) continue;
    const file = await readRecordedFile(join(folder, name), roots, reading);
    if (file) files.push(file);
  }
  if (depth >= MAX_DEPTH) return files;
  for (const name of names) {
    if (kinds.get(name)) continue;
    files.push(...await readTree({ folder: join(folder, name), roots }, reading, depth + 1));
  }
  return files;
}
