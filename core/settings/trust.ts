import { dirname, join, resolve } from "../../events/posix_path.ts";
import { isRecord } from "./is_record.ts";
import { atomicTemporary, writeAtomically } from "../files/write_atomically.ts";

/**
 * Workspace trust as Claude Code keeps it: `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
 * when set) → `projects[<absolute folder>].hasTrustDialogAccepted`, so a folder trusted in one is
 * trusted in the other.
 */

/** Where Claude Code keeps its per-user state, trust among it; undefined without a home. */
export function claudeJsonPath(
  home: string | undefined,
  configDir?: string | undefined,
): string | undefined {
  if (configDir) return join(configDir, ".claude.json");
  return home === undefined ? undefined : join(home, ".claude.json");
}

/** What reading the trust of a folder found. */
export interface TrustRead {
  /** The folder, or a folder above it, was trusted. */
  trusted: boolean;
  /** The trusted folder (the workspace itself or one above it) when trusted. */
  by?: string;
  /** Why the file could not be used (not JSON, not an object), naming it: reported, not fatal. */
  problem?: string;
}

/**
 * Whether `folder` is trusted: it or a folder above it has `hasTrustDialogAccepted: true` in the
 * file at `path` (as Claude Code, trusting a folder trusts what is inside it). A missing file
 * trusts nothing; a malformed one trusts nothing and says why. Never throws.
 */
export async function readTrust(path: string | undefined, folder: string): Promise<TrustRead> {
  if (path === undefined) return { trusted: false };
  const read = await readClaudeJson(path);
  if ("problem" in read) return { trusted: false, problem: read.problem };
  const projects = read.json?.["projects"];
  if (!isRecord(projects)) return { trusted: false };
  for (let dir = resolve(folder);; dir = dirname(dir)) {
    const entry = projects[dir];
    if (isRecord(entry) && entry["hasTrustDialogAccepted"] === true) {
      return { trusted: true, by: dir };
    }
    if (dirname(dir) === dir) return { trusted: false };
  }
}

/** The folders trusted in the file at `path`, sorted. Throws when it is malformed. */
export async function trustedFolders(path: string): Promise<string[]> {
  const read = await readClaudeJson(path);
  if ("problem" in read) throw new Error(read.problem);
  const projects = read.json?.["projects"];
  if (!isRecord(projects)) return [];
  return Object.entries(projects)
    .filter(([, entry]) => isRecord(entry) && entry["hasTrustDialogAccepted"] === true)
    .map(([folder]) => folder)
    .sort();
}

/**
 * The temporary file {@link writeTrust} writes before renaming it over `path`: one fixed name,
 * so the launcher can allow writing exactly it (cli/_launch_plan.ts).
 */
export function trustTemporary(path: string): string {
  return atomicTemporary(path);
}

/**
 * Records that `folder` is trusted (or, with `trusted` false, no longer is) in the file at
 * `path`, keeping every other key of the file as it was. Written atomically (a temporary file in
 * the same folder, {@link trustTemporary}, renamed over it) with the file's mode kept (0600 for a
 * new one, as it holds account state). A malformed file is never overwritten: this throws saying
 * why.
 */
export async function writeTrust(path: string, folder: string, trusted: boolean): Promise<void> {
  const read = await readClaudeJson(path);
  if ("problem" in read) throw new Error(read.problem);
  const json: Record<string, unknown> = read.json ?? {};
  const key = resolve(folder);
  const projects = isRecord(json["projects"]) ? json["projects"] : {};
  const entry = isRecord(projects[key]) ? projects[key] : {};
  // Defined as data, so a folder named "__proto__" stays an ordinary key.
  Object.defineProperty(projects, key, {
    value: { ...entry, hasTrustDialogAccepted: trusted },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  json["projects"] = projects;
  await writeAtomically(path, `${JSON.stringify(json, null, 2)}\n`);
}

type ClaudeJson = { json: Record<string, unknown> | undefined } | { problem: string };

/** The file's top-level object (undefined when there is no file), or what is wrong with it. */
async function readClaudeJson(path: string): Promise<ClaudeJson> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { json: undefined };
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `Cannot read "${path}": ${reason}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `Cannot parse "${path}", left as it is: ${reason}` };
  }
  if (!isRecord(json)) {
    return { problem: `Cannot use "${path}", left as it is: its top level is not an object` };
  }
  return { json };
}
