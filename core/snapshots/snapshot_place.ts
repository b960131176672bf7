import { join } from "../../events/posix_path.ts";
import { sha256Hex, type StartPoint } from "../../events/start_point.ts";
import { pointProblem, startPointOf } from "./log_point.ts";
import { snapshotDir, writeFileAtomically } from "./snapshot_files.ts";

/**
 * Where the snapshots of a log are kept, and how a place in that log is found and checked: files
 * beside a JSONL log ({@link fileSnapshots}), or the snapshot table of a database's log. A
 * snapshot is named as its file is, relative to the log's snapshot folder:
 * `catalog-<seq, 12 digits>.json` or `sessions/<session, URI-encoded>.json`; its text is the
 * file's (header line, body line). The checks of what a snapshot holds are the same for every
 * place (core/snapshots' readers).
 */
export interface SnapshotPlace {
  /** What the snapshot `name` is called in messages and reports (a file's path). */
  pathOf(name: string): string;
  /** The names of the catalog snapshots kept, in any order; none when there are none. */
  catalogNames(): Promise<string[]>;
  /** The names of the session snapshots kept, in any order. */
  sessionNames(): Promise<string[]>;
  /** The whole text of the snapshot `name`; undefined when there is none. */
  read(name: string): Promise<string | undefined>;
  /** Store `text` as the snapshot `name`, replacing it whole (a reader sees one or the other). */
  write(name: string, text: string): Promise<void>;
  /** Remove the snapshot `name`; whether there was one to remove. Never throws. */
  remove(name: string): Promise<boolean>;
  /**
   * The start point just after event `seq`, whose line (in the log's JSONL form) ends at byte
   * `offset`, with the hash of that line as it is now; undefined when no line ends there.
   */
  pointAt(seq: number, offset: number): Promise<Required<StartPoint> | undefined>;
  /** Why `point` does not hold in the log now, or undefined when it does. */
  pointProblem(point: StartPoint): Promise<string | undefined>;
}

/** The name of the catalog snapshot at `seq`. Pure. */
export function catalogName(seq: number): string {
  return `catalog-${String(seq).padStart(12, "0")}.json`;
}

/** The name of the snapshot of session `id`. Pure. */
export function sessionName(id: string): string {
  return `sessions/${encodeURIComponent(id)}.json`;
}

/** The session a snapshot name of {@link sessionName}'s form is of, or undefined. Pure. */
export function sessionOfName(name: string): string | undefined {
  const found = /^sessions\/([^/\\]+)\.json$/.exec(name);
  if (found === null) return undefined;
  try {
    return decodeURIComponent(found[1]!);
  } catch {
    return undefined;
  }
}

/** `log` as a place: a JSONL log's path is its snapshot files (see {@link fileSnapshots}). */
export function placeOf(log: string | SnapshotPlace): SnapshotPlace {
  return typeof log === "string" ? fileSnapshots(log) : log;
}

/**
 * The snapshot files of the JSONL log at `logPath`, in `snapshotDir(logPath)`: written through a
 * temporary file renamed into place; places checked by reading the log's line ending there.
 */
export function fileSnapshots(logPath: string): SnapshotPlace {
  const dir = snapshotDir(logPath);
  const namesIn = async (folder: string, prefix: string, pattern: RegExp) => {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(folder)) {
        if (entry.isFile && pattern.test(entry.name)) names.push(`${prefix}${entry.name}`);
      }
    } catch {
      return [];
    }
    return names;
  };
  return {
    pathOf: (name) => join(dir, name),
    catalogNames: () => namesIn(dir, "", /^catalog-\d+\.json$/),
    sessionNames: () => namesIn(join(dir, "sessions"), "sessions/", /\.json$/),
    read: (name) => Deno.readTextFile(join(dir, name)).catch(() => undefined),
    write: (name, text) => writeFileAtomically(join(dir, name), text),
    remove: (name) => Deno.remove(join(dir, name)).then(() => true, () => false),
    pointAt: (seq, offset) => startPointOf(logPath, seq, offset),
    pointProblem: (point) => pointProblem(logPath, point),
  };
}

/** The rows a database keeps a log's snapshots in (events/postgres' `SnapshotTable`). */
export interface SnapshotRows {
  names(prefix?: string): Promise<string[]>;
  read(name: string): Promise<string | undefined>;
  write(name: string, seq: number, text: string): Promise<void>;
  remove(name: string): Promise<boolean>;
  /** The JSONL line of event `seq` as the log holds it; undefined when it holds none. */
  line(seq: number): Promise<string | undefined>;
}

/**
 * The snapshots of a database's log kept in `rows`, named `<label>/<name>` in reports. A place is
 * checked against the line the log holds for its seq (the row is the event: its hash must be the
 * one recorded); its offset, where that line ends in the log's JSONL form, is the signed header's.
 * A row that cannot be read counts as missing: a snapshot is never needed.
 */
export function rowSnapshots(rows: SnapshotRows, label: string): SnapshotPlace {
  const lineHash = async (seq: number) => {
    const line = await rows.line(seq).catch(() => undefined);
    return line === undefined ? undefined : await sha256Hex(line);
  };
  return {
    pathOf: (name) => `${label}/${name}`,
    // Only names of the files' forms (a row named otherwise is not a snapshot rein wrote).
    catalogNames: async () =>
      (await rows.names("catalog-").catch(() => [])).filter((n) => /^catalog-\d+\.json$/.test(n)),
    sessionNames: async () =>
      (await rows.names("sessions/").catch(() => [])).filter((n) => sessionOfName(n) !== undefined),
    read: (name) => rows.read(name).catch(() => undefined),
    write: (name, text) => rows.write(name, seqOfText(text), text),
    remove: (name) => rows.remove(name).catch(() => false),
    pointAt: async (seq, offset) => {
      const hash = await lineHash(seq);
      return hash === undefined ? undefined : { seq, offset, lineHash: hash };
    },
    pointProblem: async (point) => {
      if (!Number.isInteger(point.seq) || point.seq < 1) return `bad seq ${point.seq}`;
      const hash = await lineHash(point.seq);
      if (hash === undefined) return `the log holds no event ${point.seq}`;
      if (point.lineHash !== undefined && hash !== point.lineHash) {
        return `the line of event ${point.seq} is not the one recorded`;
      }
      return undefined;
    },
  };
}

/** The seq of a snapshot's text (its header's), or 0. Pure. */
function seqOfText(text: string): number {
  try {
    const seq = JSON.parse(text.slice(0, text.indexOf("\n")))?.seq;
    return Number.isInteger(seq) ? seq : 0;
  } catch {
    return 0;
  }
}
