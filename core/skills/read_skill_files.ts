import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedFile } from "../../events/event_types.ts";
import { readFolders, type Reading } from "../files/recorded_file.ts";
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
    join(place.workspace, ".claude", "skills"),
    ...(place.home ? [join(place.home, ".claude", "skills")] : []),
    typeof bundled === "string" ? resolve(bundled) : fileURLToPath(bundled),
  ].map((folder) => folder.replace(/\/+$/, ""));
  return [...new Set(folders)];
}

/**
 * Read every `<folder>/<name>/SKILL.md` of {@link skillFolders} from disk, live only, subfolders
 * in name order, and return their full text to record (source `skills`). A missing folder or
 * subfolder without SKILL.md is skipped quietly; a folder or file that cannot be read, a file
 * over {@link MAX_SKILL_FILE}, and a skill that cannot be used (bad frontmatter, no description,
 * a name already taken) are reported through `place.onNotice` with their path. Unusable files
 * are recorded all the same: the skills are derived from the record, by the same rules, in
 * replay. Never throws.
 */
export async function readSkillFiles(
  place: FilePlace,
  bundled: URL | string,
): Promise<RecordedFile[]> {
  const reading: Reading = {
    source: SKILLS_SOURCE,
    file: "the skill",
    folder: "the skills",
    maxBytes: MAX_SKILL_FILE,
    onNotice: place.onNotice,
  };
  const files = await readFolders(
    skillFolders(place, bundled),
    (entry) => entry.isDirectory || entry.isSymlink,
    (folder, name) => join(folder, name, "SKILL.md"),
    reading,
  );
  for (const message of skillSet(files).diagnostics) place.onNotice(message);
  return files;
}
