import { basename, dirname, isAbsolute, join, resolve } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { isInside } from "../files/is_inside.ts";
import { type ConfinedRead, readConfined } from "../files/read_confined.ts";
import { realRoots, type StartBounds, startBounds } from "../files/start_bounds.ts";
import { readsSource } from "../files/file_place.ts";
import type { FilePlace } from "../mechanism.ts";
import { importReferences } from "./import_references.ts";
import { PATH_RULE_SOURCE, ruleGlobs } from "./path_rules.ts";
import { instructionPaths, projectDirectories } from "./instruction_paths.ts";
import {
  byteLength,
  DEFAULT_MEMORY_DIRECTORY,
  INSTRUCTIONS_SOURCE,
  kilobytes,
  MAX_FILE_BYTES,
  MAX_IMPORT_DEPTH,
  MAX_TOTAL_BYTES,
  MEMORY_INDEX_NAME,
  MEMORY_INDEX_SOURCE,
} from "./memory_files.ts";

/** Where memory lives and how much of it is loaded. */
export interface MemoryOptions {
  /** The memory directory, relative to the workspace or absolute (`.rein/memory` by default). */
  directory?: string;
  /** Bytes of one file (default {@link MAX_FILE_BYTES}). */
  maxFileBytes?: number;
  /** Bytes of all instruction files together (default {@link MAX_TOTAL_BYTES}). */
  maxTotalBytes?: number;
}

/** The memory index's path for a workspace. Pure. */
export function memoryIndexPath(workspace: string, options: MemoryOptions = {}): string {
  const directory = options.directory ?? DEFAULT_MEMORY_DIRECTORY;
  return join(isAbsolute(directory) ? directory : resolve(workspace, directory), MEMORY_INDEX_NAME);
}

/**
 * Read the memory files as they are on disk now, to record with a session: the project
 * instruction files (see `instructionPaths`) each followed by the files it imports, at most
 * {@link MAX_IMPORT_DEPTH} deep, every file once; then the memory index, recorded with empty text
 * when it does not exist yet or is skipped (so the prompt still says where memory goes). Files
 * over the caps are cut at a line end, and no more than the cap (and a byte) of one is read.
 *
 * No file leads out of its root, through symbolic links or imports: the person's own
 * (`~/.claude/CLAUDE.md` and what it imports) stay in the home directory (or `~/.claude`), a
 * repository's stay in the repository (the workspace when it is in none; a directory above it
 * outside a repository, in that directory), and the memory index in the workspace (or the
 * memory directory named outside it). An import from a repository's file that leads out of it is
 * not followed: the person may import that file from their own `~/.claude/CLAUDE.md`. Nothing on
 * the credential list is read, wherever it lies, and only regular files are read (a named pipe
 * never blocks). Import cycles, missing imports, unreadable or skipped files and cuts are reported
 * through `place.onNotice`, naming the file (and line) and where it leads; none of them stops the
 * others, and nothing of a skipped file is recorded. Never throws.
 */
export async function readMemoryFiles(
  place: FilePlace,
  options: MemoryOptions = {},
): Promise<RecordedFile[]> {
  const bounds = await startBounds(place);
  const reading: Reading = {
    place,
    bounds,
    recorded: [],
    seen: new Set(),
    fileCap: options.maxFileBytes ?? MAX_FILE_BYTES,
    totalCap: options.maxTotalBytes ?? MAX_TOTAL_BYTES,
    left: options.maxTotalBytes ?? MAX_TOTAL_BYTES,
  };
  const dirs = await projectDirectories(place.workspace, place.home);
  const rootOf = await repositoryRoots(dirs);
  const personal = place.home === undefined ? undefined : join(place.home, ".claude", "CLAUDE.md");
  // Each file as its setting source says (`--setting-sources`): the person's, the local ones,
  // and the project's.
  const sourceOf = (path: string) =>
    path === personal ? "user" : basename(path) === "CLAUDE.local.md" ? "local" : "project";
  const paths = instructionPaths(dirs, place.home)
    .filter((path) => readsSource(place, sourceOf(path)));
  // `.claude/rules/` as Claude Code reads it: the person's after ~/.claude/CLAUDE.md, the
  // project's after its CLAUDE.md files and before the personal CLAUDE.local.md ones.
  let projectRules = readsSource(place, "project");
  const readProjectRules = async () => {
    if (!projectRules) return;
    projectRules = false;
    for (const dir of dirs) {
      const rules = join(dir, ".claude", "rules");
      await readRules(reading, rules, { roots: await rootOf(rules), personal: false });
    }
  };
  for (const path of paths) {
    if (basename(path) === "CLAUDE.local.md") await readProjectRules();
    const owner = path === personal
      ? { roots: bounds.personal, personal: true }
      : { roots: await rootOf(path), personal: false };
    await visit(reading, path, owner, []);
    if (path === personal && place.home !== undefined) {
      await readRules(reading, join(place.home, ".claude", "rules"), owner);
    }
  }
  await readProjectRules();
  const index = memoryIndexPath(place.workspace, options);
  const indexRoots = isInside(resolve(place.workspace), index)
    ? bounds.workspace
    : await realRoots(dirname(index));
  return [...reading.recorded, await readIndex(reading, index, indexRoots)];
}

interface Reading {
  place: FilePlace;
  bounds: StartBounds;
  recorded: RecordedFile[];
  /** Real paths already recorded. */
  seen: Set<string>;
  fileCap: number;
  totalCap: number;
  /** Bytes of instruction files still allowed. */
  left: number;
}

/** Whose an instruction file is, and so where it and its imports may lead. */
interface Owner {
  roots: readonly string[];
  /** The person's own (`~/.claude/CLAUDE.md`), not a repository's. */
  personal: boolean;
}

/** Where an import was written: the importing file, the line and the path as written. */
interface ImportSite {
  file: string;
  line: number;
  written: string;
}

/**
 * The roots of the instruction files of each of `dirs` (outermost first): the repository, when
 * the outermost one holds `.git`; else each directory is its own.
 */
async function repositoryRoots(
  dirs: readonly string[],
): Promise<(path: string) => Promise<string[]>> {
  const top = dirs[0];
  const repository = top !== undefined && await exists(join(top, ".git"));
  const deepest = (path: string) => dirs.findLast((dir) => isInside(dir, path)) ?? dirname(path);
  return (path) => realRoots(repository && top !== undefined ? top : deepest(path));
}

async function visit(
  reading: Reading,
  path: string,
  owner: Owner,
  chain: string[],
  site?: ImportSite,
) {
  const { onNotice } = reading.place;
  const at = site && `"@${site.written}" at line ${site.line} of "${site.file}"`;
  const real = await realPath(path);
  if (real === undefined) {
    if (at) onNotice(`Cannot import ${at}: "${path}" does not exist`);
    return;
  }
  if (chain.includes(real)) {
    onNotice(`Import cycle: ${at} leads back to "${path}", which imports it; not followed`);
    return;
  }
  if (reading.seen.has(real)) return;
  const read = await readConfined(path, {
    roots: owner.roots,
    credentials: reading.bounds.credentials,
    maxBytes: reading.fileCap,
  });
  if (!read.ok) {
    if (read.problem === "missing") {
      if (at) onNotice(`Cannot import ${at}: "${path}" does not exist`);
    } else if (at) {
      onNotice(`Not importing ${at}: ${read.why}${importHint(read, owner)}`);
    } else {
      onNotice(`Skipped instructions "${path}": ${read.why}`);
    }
    return;
  }
  reading.seen.add(real);
  const text = new TextDecoder().decode(read.bytes);
  if (text.includes("\0")) {
    return onNotice(`Cannot read instructions "${path}": it is not a text file`);
  }
  const kept = capped(reading, path, text, fullSize(read, text, reading.fileCap));
  if (kept === undefined) return;
  reading.recorded.push({ source: INSTRUCTIONS_SOURCE, path, text: kept });
  for (const reference of importReferences(kept)) {
    const next = { file: path, line: reference.line, written: reference.path };
    if (chain.length + 1 > MAX_IMPORT_DEPTH) {
      onNotice(
        `Not following "@${reference.path}" at line ${reference.line} of "${path}": imports ` +
          `go at most ${MAX_IMPORT_DEPTH} deep`,
      );
      continue;
    }
    const target = importTarget(reference.path, path, reading.place.home);
    if (target === undefined) {
      onNotice(
        `Cannot import "@${reference.path}" at line ${reference.line} of "${path}": ` +
          "no home directory is known",
      );
      continue;
    }
    await visit(reading, target, owner, [...chain, real], next);
  }
}

/** How deep subfolders of `.claude/rules/` are looked into. */
const MAX_RULE_DEPTH = 4;

/**
 * The `.md` files under `folder` (a `.claude/rules/`, subfolders too, names in order): a rule
 * with `paths:` in its frontmatter is recorded as it is (source `memory.rule`: it joins the
 * context when a file it names is read); one without is an instruction file like CLAUDE.md
 * (its imports followed, within the caps). A folder leading out of `owner`'s roots is skipped
 * with a notice; a missing one quietly.
 */
async function readRules(reading: Reading, folder: string, owner: Owner, depth = 0) {
  const { onNotice } = reading.place;
  let names: { name: string; directory: boolean }[] = [];
  try {
    const real = await Deno.realPath(folder);
    if (!owner.roots.some((root) => isInside(root, real))) {
      onNotice(
        `Skipped the rules in "${folder}": it leads to "${real}", outside "${owner.roots[0]}"`,
      );
      return;
    }
    for await (const entry of Deno.readDir(folder)) {
      const directory = entry.isDirectory ||
        (entry.isSymlink && await isDirectory(join(folder, entry.name)));
      if (directory ? !entry.name.startsWith(".") : entry.name.toLowerCase().endsWith(".md")) {
        names.push({ name: entry.name, directory });
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
      onNotice(`Cannot read the rules in "${folder}": ${(error as Error).message}`);
    }
    return;
  }
  names = names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const { name, directory } of names) {
    if (directory) continue;
    const path = join(folder, name);
    const read = await readConfined(path, {
      roots: owner.roots,
      credentials: reading.bounds.credentials,
      maxBytes: reading.fileCap,
    });
    if (!read.ok) {
      if (read.problem !== "missing") onNotice(`Skipped the rule "${path}": ${read.why}`);
      continue;
    }
    const text = new TextDecoder().decode(read.bytes);
    if (ruleGlobs(text) === undefined) {
      await visit(reading, path, owner, []);
    } else if (read.bytes.length > reading.fileCap || text.includes("\0")) {
      onNotice(`Skipped the rule "${path}": it is over ${kilobytes(reading.fileCap)} or not text`);
    } else {
      reading.recorded.push({ source: PATH_RULE_SOURCE, path, text });
    }
  }
  if (depth >= MAX_RULE_DEPTH) return;
  for (const { name, directory } of names) {
    if (directory) await readRules(reading, join(folder, name), owner, depth + 1);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/** How to use an import a repository's instructions may not make. Pure. */
function importHint(read: ConfinedRead, owner: Owner): string {
  if (read.ok || read.problem !== "outside" || owner.personal) return "";
  return "; a repository's instructions import only files inside it (to use that file, import " +
    "it from your own ~/.claude/CLAUDE.md)";
}

/** The size of a file read in part: the decoded text's, or the file's when it was cut. Pure. */
function fullSize(read: ConfinedRead & { ok: true }, text: string, cap: number): number {
  return read.bytes.length <= cap ? byteLength(text) : Math.max(read.size, read.bytes.length);
}

/** The absolute path an import names: `~/` from home, absolute as is, else beside `importer`. */
function importTarget(written: string, importer: string, home: string | undefined) {
  if (written === "~" || written.startsWith("~/")) {
    return home === undefined ? undefined : join(home, written.slice(1));
  }
  return isAbsolute(written) ? written : resolve(dirname(importer), written);
}

/**
 * `text` (all of a file of `bytes` bytes, or its head when it is over the file cap) within the
 * caps, cut at a line end (with a notice), or undefined to skip the file.
 */
function capped(
  reading: Reading,
  path: string,
  text: string,
  bytes: number,
): string | undefined {
  if (reading.left <= 0) {
    reading.place.onNotice(
      `Skipped instructions "${path}" (${kilobytes(bytes)}): the instruction files together ` +
        `may not pass ${kilobytes(reading.totalCap)}`,
    );
    return undefined;
  }
  const limit = Math.min(reading.fileCap, reading.left);
  if (bytes <= limit) {
    reading.left -= bytes;
    return text;
  }
  const cut = cutAtLine(text, limit);
  reading.place.onNotice(
    bytes > reading.fileCap
      ? `Instructions "${path}" are ${kilobytes(bytes)}, over the ${kilobytes(reading.fileCap)} ` +
        `cap for one file: only the first ${kilobytes(byteLength(cut))} are loaded`
      : `Only the first ${kilobytes(byteLength(cut))} of instructions "${path}" are loaded: ` +
        `the instruction files together may not pass ${kilobytes(reading.totalCap)}`,
  );
  reading.left = bytes > reading.fileCap ? reading.left - byteLength(cut) : 0;
  return cut;
}

/** The memory index as recorded: its text (cut to the file cap), or empty when absent or skipped. */
async function readIndex(
  reading: Reading,
  path: string,
  roots: readonly string[],
): Promise<RecordedFile> {
  const empty = { source: MEMORY_INDEX_SOURCE, path, text: "" };
  const read = await readConfined(path, {
    roots,
    credentials: reading.bounds.credentials,
    maxBytes: reading.fileCap,
  });
  if (!read.ok) {
    if (read.problem !== "missing") {
      reading.place.onNotice(`Skipped memory "${path}": ${read.why}`);
    }
    return empty;
  }
  const whole = new TextDecoder().decode(read.bytes);
  if (whole.includes("\0")) {
    reading.place.onNotice(`Cannot read memory "${path}": it is not a text file`);
    return empty;
  }
  const bytes = fullSize(read, whole, reading.fileCap);
  if (bytes <= reading.fileCap) return { ...empty, text: whole };
  const text = cutAtLine(whole, reading.fileCap);
  reading.place.onNotice(
    `Memory "${path}" is ${kilobytes(bytes)}, over the ${kilobytes(reading.fileCap)} cap: only ` +
      `the first ${kilobytes(byteLength(text))} are loaded`,
  );
  return { ...empty, text };
}

/** The longest run of whole lines of `text` within `limit` bytes. Pure. */
function cutAtLine(text: string, limit: number): string {
  const head = new TextDecoder().decode(new TextEncoder().encode(text).slice(0, limit));
  const end = head.lastIndexOf("\n");
  return end < 0 ? "" : head.slice(0, end + 1);
}

async function realPath(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
