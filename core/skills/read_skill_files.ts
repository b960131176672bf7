import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedFile } from "../../events/event_types.ts";
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
  const perFolder = await Promise.all(
    skillFolders(place, bundled).map((folder) => readFolder(folder, place.onNotice)),
  );
  const files = perFolder.flat();
  for (const message of skillSet(files).diagnostics) place.onNotice(message);
  return files;
}

async function readFolder(
  folder: string,
  onNotice: (message: string) => void,
): Promise<RecordedFile[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isDirectory || entry.isSymlink) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
      onNotice(`Cannot read the skills in "${folder}": ${reason(error)}`);
    }
    return [];
  }
  names.sort();
  const read = await Promise.all(
    names.map((name) => readSkillFile(join(folder, name, "SKILL.md"), onNotice)),
  );
  return read.filter((file): file is RecordedFile => file !== undefined);
}

async function readSkillFile(
  path: string,
  onNotice: (message: string) => void,
): Promise<RecordedFile | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    if (info.size > MAX_SKILL_FILE) {
      onNotice(
        `Skipped the skill at "${path}": it is ${info.size} bytes, over the ` +
          `${MAX_SKILL_FILE}-byte limit`,
      );
      return undefined;
    }
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
    return { source: SKILLS_SOURCE, path, text };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    onNotice(`Skipped the skill at "${path}": cannot read it: ${reason(error)}`);
    return undefined;
  }
}

function reason(error: unknown): string {
  if (error instanceof TypeError) return "it is not UTF-8 text";
  return error instanceof Error ? error.message : String(error);
}
