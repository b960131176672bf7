import type { RecordedFile } from "../../events/event_types.ts";
import { isInside } from "./is_inside.ts";
import { readConfined } from "./read_confined.ts";

/** How a mechanism names what it reads, in its notices. */
export interface Reading {
  /** The `source` the files are recorded under. */
  source: string;
  /** What one file is, for notices: "the skill", "the agent definition". */
  file: string;
  /** What a folder holds, for notices: "the skills", "the agent definitions". */
  folder: string;
  /** Files larger than this are skipped with a notice. */
  maxBytes: number;
  /** Never read, wherever a file leads (see `StartBounds`). */
  credentials: readonly string[];
  onNotice(message: string): void;
}

/** A folder to read, and where its files may lead (real paths, see `realRoots`). */
export interface RootedFolder {
  folder: string;
  roots: readonly string[];
}

/**
 * The names in `folder` that `keep` selects, sorted; none when the folder is missing. A folder
 * that leads outside its `roots` (a symbolic link) is not listed, and that or a folder that cannot
 * be read otherwise is reported through `reading.onNotice`. Never throws.
 */
export async function folderNames(
  { folder, roots }: RootedFolder,
  keep: (entry: Deno.DirEntry) => boolean,
  reading: Reading,
): Promise<string[]> {
  const names: string[] = [];
  try {
    const real = await Deno.realPath(folder);
    if (!roots.some((root) => isInside(root, real))) {
      reading.onNotice(
        `Skipped ${reading.folder} in "${folder}": it leads to "${real}", outside ` +
          `"${roots[0] ?? "/"}"`,
      );
      return [];
    }
    for await (const entry of Deno.readDir(folder)) if (keep(entry)) names.push(entry.name);
  } catch (error) {
    if (!missing(error)) {
      reading.onNotice(`Cannot read ${reading.folder} in "${folder}": ${reason(error)}`);
    }
    return [];
  }
  return names.sort();
}

/**
 * The file `fileIn(folder, name)` for each entry `keep` accepts in each of `folders`, read at
 * once, returned and reported in a fixed order: folders as given, names sorted. Files and
 * notices come out alike on every run, whichever read finishes first. Never throws.
 */
export async function readFolders(
  folders: readonly RootedFolder[],
  keep: (entry: Deno.DirEntry) => boolean,
  fileIn: (folder: string, name: string) => string,
  reading: Reading,
): Promise<RecordedFile[]> {
  const inOrder = (read: (reading: Reading) => Promise<RecordedFile[]>) => {
    const notices: string[] = [];
    return read({ ...reading, onNotice: (message) => notices.push(message) })
      .then((files) => ({ files, notices }));
  };
  const perFolder = await Promise.all(folders.map((folder) =>
    inOrder(async (buffered) => {
      const names = await folderNames(folder, keep, buffered);
      const perFile = await Promise.all(names.map((name) =>
        inOrder(async (own) => {
          const file = await readRecordedFile(fileIn(folder.folder, name), folder.roots, own);
          return file ? [file] : [];
        })
      ));
      for (const { notices } of perFile) for (const message of notices) buffered.onNotice(message);
      return perFile.flatMap(({ files }) => files);
    })
  ));
  for (const { notices } of perFolder) for (const message of notices) reading.onNotice(message);
  return perFolder.flatMap(({ files }) => files);
}

/**
 * The file at `path` as it is to be recorded, or undefined: missing (quietly), or, each reported
 * with its path, leading outside `roots` or to a credential store, not a regular file, over
 * `maxBytes` (never read whole), unreadable or not UTF-8 (see `readConfined`). Nothing of a
 * skipped file is returned. Never throws.
 */
export async function readRecordedFile(
  path: string,
  roots: readonly string[],
  reading: Reading,
): Promise<RecordedFile | undefined> {
  const read = await readConfined(path, {
    roots,
    credentials: reading.credentials,
    maxBytes: reading.maxBytes,
  });
  if (!read.ok) {
    if (read.problem !== "missing") {
      reading.onNotice(`Skipped ${reading.file} at "${path}": ${read.why}`);
    }
    return undefined;
  }
  if (read.bytes.length > reading.maxBytes) {
    reading.onNotice(
      `Skipped ${reading.file} at "${path}": it is ${Math.max(read.size, read.bytes.length)} ` +
        `bytes, over the ${reading.maxBytes}-byte limit`,
    );
    return undefined;
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
    return { source: reading.source, path, text };
  } catch (error) {
    reading.onNotice(`Skipped ${reading.file} at "${path}": cannot read it: ${reason(error)}`);
    return undefined;
  }
}

function missing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

function reason(error: unknown): string {
  if (error instanceof TypeError) return "it is not UTF-8 text";
  return error instanceof Error ? error.message : String(error);
}
