import { dirname, isAbsolute, join, resolve } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";
import type { FilePlace } from "../mechanism.ts";
import { importReferences } from "./import_references.ts";
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
 * when it does not exist yet (so the prompt still says where memory goes). Files over the caps are
 * cut at a line end. Import cycles, missing imports, unreadable files and cuts are reported
 * through `place.onNotice`, naming the file (and line); none of them stops the others. Never
 * throws.
 */
export async function readMemoryFiles(
  place: FilePlace,
  options: MemoryOptions = {},
): Promise<RecordedFile[]> {
  const reading: Reading = {
    place,
    recorded: [],
    seen: new Set(),
    fileCap: options.maxFileBytes ?? MAX_FILE_BYTES,
    totalCap: options.maxTotalBytes ?? MAX_TOTAL_BYTES,
    left: options.maxTotalBytes ?? MAX_TOTAL_BYTES,
  };
  const dirs = await projectDirectories(place.workspace, place.home);
  for (const path of instructionPaths(dirs, place.home)) await visit(reading, path, []);
  return [...reading.recorded, await readIndex(reading, memoryIndexPath(place.workspace, options))];
}

interface Reading {
  place: FilePlace;
  recorded: RecordedFile[];
  /** Real paths already visited. */
  seen: Set<string>;
  fileCap: number;
  totalCap: number;
  /** Bytes of instruction files still allowed. */
  left: number;
}

/** Where an import was written: the importing file, the line and the path as written. */
interface ImportSite {
  file: string;
  line: number;
  written: string;
}

async function visit(reading: Reading, path: string, chain: string[], site?: ImportSite) {
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
  reading.seen.add(real);
  const read = await readText(path);
  if (typeof read !== "string") return onNotice(`Cannot read instructions "${path}": ${read.why}`);
  const text = capped(reading, path, read);
  if (text === undefined) return;
  reading.recorded.push({ source: INSTRUCTIONS_SOURCE, path, text });
  for (const reference of importReferences(text)) {
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
    await visit(reading, target, [...chain, real], next);
  }
}

/** The absolute path an import names: `~/` from home, absolute as is, else beside `importer`. */
function importTarget(written: string, importer: string, home: string | undefined) {
  if (written === "~" || written.startsWith("~/")) {
    return home === undefined ? undefined : join(home, written.slice(1));
  }
  return isAbsolute(written) ? written : resolve(dirname(importer), written);
}

/** `text` within the caps, cut at a line end (with a notice), or undefined to skip the file. */
function capped(reading: Reading, path: string, text: string): string | undefined {
  const bytes = byteLength(text);
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

/** The memory index as recorded: its text (cut to the file cap), or empty when absent. */
async function readIndex(reading: Reading, path: string): Promise<RecordedFile> {
  const read = await readText(path);
  if (typeof read !== "string") {
    if (!read.missing) reading.place.onNotice(`Cannot read memory "${path}": ${read.why}`);
    return { source: MEMORY_INDEX_SOURCE, path, text: "" };
  }
  const bytes = byteLength(read);
  if (bytes <= reading.fileCap) return { source: MEMORY_INDEX_SOURCE, path, text: read };
  const text = cutAtLine(read, reading.fileCap);
  reading.place.onNotice(
    `Memory "${path}" is ${kilobytes(bytes)}, over the ${kilobytes(reading.fileCap)} cap: only ` +
      `the first ${kilobytes(byteLength(text))} are loaded`,
  );
  return { source: MEMORY_INDEX_SOURCE, path, text };
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

/** A text file's contents, or why it cannot be used. */
async function readText(path: string): Promise<string | { missing: boolean; why: string }> {
  try {
    const text = await Deno.readTextFile(path);
    if (text.includes("\0")) return { missing: false, why: "it is not a text file" };
    return text;
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return { missing, why: error instanceof Error ? error.message : String(error) };
  }
}
