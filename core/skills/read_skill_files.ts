import { join, resolve } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { pluginPartPaths } from "../files/plugin_root.ts";
import {
  readFolders,
  type Reading,
  readRecordedFile,
  type RootedFolder,
} from "../files/recorded_file.ts";
import { realRoots, startBounds } from "../files/start_bounds.ts";
import { readsSource } from "../files/file_place.ts";
import type { FilePlace } from "../mechanism.ts";
import { SKILLS_SOURCE, skillSet } from "./skill_set.ts";

/** Largest SKILL.md rein records; a bigger one is reported and skipped. */
export const MAX_SKILL_FILE = 256 * 1024;

/**
 * The skill folders of `place`, in precedence order: the project's `.claude/skills/`, the
 * person's `~/.claude/skills/`, then `bundled` (rein's own `skills/`). A folder named twice (the
 * workspace is the home directory) is read once.
 */
export function skillFolders(place: FilePlace, bundled: URL | string): string[] {
  const folders = [
    ...(readsSource(place, "project") ? [join(place.workspace, ".claude", "skills")] : []),
    ...(place.home && readsSource(place, "user") ? [join(place.home, ".claude", "skills")] : []),
    typeof bundled === "string" ? resolve(bundled) : pathOfFileUrl(bundled),
  ].map((folder) => folder.replace(/\/+$/, ""));
  return [...new Set(folders)];
}

/**
 * The path a `file:` URL names (POSIX), without loading `node:url` at start. Throws on another
 * scheme, naming it.
 */
function pathOfFileUrl(url: URL): string {
  if (url.protocol !== "file:") {
    throw new Error(`Invalid skills folder: "${url.href}" is not a file: URL`);
  }
  return decodeURIComponent(url.pathname);
}

/**
 * Read every `<folder>/<name>/SKILL.md` of {@link skillFolders}, then of each of `place.plugins`
 * (its `skills/` and the paths its manifest adds, confined to its folder, recorded with its name),
 * from disk, live only, subfolders in name order, and return the text to record (source `skills`) of the skills that can be used.
 * A missing folder or subfolder without SKILL.md is skipped quietly. Reported through
 * `place.onNotice` with their path and never recorded: a folder or file that cannot be read, one
 * that leads (through a symbolic link) out of its root (the workspace for the project's skills,
 * the home directory or `~/.claude` for the person's, rein's `skills/` for the bundled ones) or
 * to a credential store, a file that is not a regular file or is over {@link MAX_SKILL_FILE},
 * and a skill that cannot be used (bad frontmatter, no description, a name already taken). The
 * skills are derived from the record, by the same rules, in replay. Never throws.
 */
export async function readSkillFiles(
  place: FilePlace,
  bundled: URL | string,
): Promise<RecordedFile[]> {
  const bounds = await startBounds(place);
  const reading: Reading = {
    source: SKILLS_SOURCE,
    file: "the skill",
    folder: "the skills",
    maxBytes: MAX_SKILL_FILE,
    credentials: bounds.credentials,
    onNotice: place.onNotice,
  };
  const personal = place.home === undefined ? undefined : join(place.home, ".claude", "skills");
  const project = join(place.workspace, ".claude", "skills");
  // The bundled folder is its own root.
  const folders: RootedFolder[] = await Promise.all(
    skillFolders(place, bundled).map(async (folder) => ({
      folder,
      roots: folder === project
        ? bounds.workspace
        : folder === personal
        ? bounds.personal
        : await realRoots(folder),
    })),
  );
  const keep = (entry: Deno.DirEntry) => entry.isDirectory || entry.isSymlink;
  const skillIn = (folder: string, name: string) => join(folder, name, "SKILL.md");
  const files = await readFolders(folders, keep, skillIn, reading);
  // Each plugin's skills, after the bundled ones, confined to its folder, named `<plugin>:<name>`.
  for (const plugin of place.plugins ?? []) {
    const roots = await realRoots(plugin.root);
    for (const folder of pluginPartPaths(plugin, "skills")) {
      // A path the manifest names may be one skill's own folder.
      const own = folder !== join(plugin.root, "skills")
        ? await readRecordedFile(join(folder, "SKILL.md"), roots, {
          ...reading,
          onNotice: () => {},
        })
        : undefined;
      const read = own ? [own] : await readFolders([{ folder, roots }], keep, skillIn, reading);
      files.push(...read.map((file) => ({ ...file, plugin: plugin.name })));
    }
  }
  const set = skillSet(files);
  for (const message of set.diagnostics) place.onNotice(message);
  const used = new Set(set.items.map((skill) => skill.path));
  return files.filter((file) => used.has(file.path));
}
