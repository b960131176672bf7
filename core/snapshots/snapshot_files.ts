import { basename, dirname, join } from "../../events/posix_path.ts";
import { sha256Hex, type StartPoint } from "../../events/start_point.ts";
import { FOLD_FINGERPRINT } from "../state/fold_fingerprint.ts";
import { type MachineKey, processMachineKey, signText } from "../effects/machine_key.ts";

/**
 * The version of the snapshot file layout itself (the fold code has its fingerprint). Layout 2
 * authenticates each snapshot with the machine key; those of layout 1 are never trusted.
 */
const LAYOUT = 2;

/**
 * The first line of a snapshot file: what it is, where in the log it was taken (a start point)
 * and by which fold code; the second line is the body, whose SHA-256 is `checksum`.
 */
export interface SnapshotHeader extends StartPoint {
  /** Always recorded for a snapshot of a JSONL log (where its seq's line ends, and its hash). */
  offset: number;
  lineHash: string;
  kind: "catalog" | "session";
  layout: number;
  /** `FOLD_FINGERPRINT` of the build that took it. */
  fingerprint: string;
  takenAt: string;
  /** Sessions it holds: the catalog's size, or 1. */
  sessions: number;
  /** For a session snapshot: the session, and the mechanism slices it holds (by key). */
  session?: string;
  projections?: string[];
  checksum: string;
  /** The id of the machine key that signed it. */
  machine?: string;
  /** HMAC-SHA-256, under that key, of every other field of the header (see `signedText`). */
  mac?: string;
}

/** A snapshot file as read: its header, and its body unless it failed a check. */
export interface SnapshotFile {
  path: string;
  header: SnapshotHeader;
  /**
   * Why it cannot be trusted (other fold code, not authenticated on this machine, bad checksum,
   * unparsable), if so.
   */
  problem?: string;
  /**
   * With a problem: whether the file is this build's layout and fold code and still fails a
   * check that rein's own writes always pass (authentication, checksum, JSON): written or changed
   * by something other than rein on this machine. `replay --verify` fails for such a file.
   */
  tampered?: boolean;
  body?: unknown;
}

/**
 * The directory of the snapshots of the log at `logPath`: `<log dir>/snapshots/<log name>/`
 * (inside `.rein/`, so ignored by git and read-only to the sandbox like the log). Pure.
 */
export function snapshotDir(logPath: string): string {
  return join(dirname(logPath), "snapshots", basename(logPath));
}

/** The file of the catalog snapshot at `seq`. Pure. */
export function catalogSnapshotPath(logPath: string, seq: number): string {
  return join(snapshotDir(logPath), `catalog-${String(seq).padStart(12, "0")}.json`);
}

/** The file of the snapshot of one session. Pure. */
export function sessionSnapshotPath(logPath: string, session: string): string {
  return join(snapshotDir(logPath), "sessions", `${encodeURIComponent(session)}.json`);
}

/**
 * Write a snapshot atomically: a temporary file beside it, then a rename over `path`, so a
 * reader sees the old file or the new one, never a part. `text` is the body as JSON (on one
 * line). The header is signed with `key` (by default this machine's, made if missing). Creates
 * the directories. Throws for an I/O error, and when there is no machine key to sign with.
 */
export async function writeSnapshotFile(
  path: string,
  header: Omit<SnapshotHeader, "layout" | "fingerprint" | "checksum" | "machine" | "mac">,
  text: string,
  key?: MachineKey,
): Promise<void> {
  await writeFileAtomically(path, await snapshotText(header, text, key));
}

/**
 * Write `text` to `path` through a temporary file beside it renamed over it, creating the
 * directories. Throws for an I/O error (the temporary file removed).
 */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * The whole text of a snapshot (as a file holds it, and a database's snapshot table): its header,
 * of this build's layout and fold code, with the checksum of `text` (the body as JSON on one line)
 * and signed with `key` (by default this machine's, made if missing), then the body. Throws when
 * there is no machine key to sign with.
 */
export async function snapshotText(
  header: Omit<SnapshotHeader, "layout" | "fingerprint" | "checksum" | "machine" | "mac">,
  text: string,
  key?: MachineKey,
): Promise<string> {
  const signer = key ?? await processMachineKey({ create: true });
  if (signer === undefined) {
    throw new Error("Cannot sign a snapshot: no place for the machine key (HOME is not set)");
  }
  const unsigned: SnapshotHeader = {
    ...header,
    layout: LAYOUT,
    fingerprint: FOLD_FINGERPRINT,
    checksum: await sha256Hex(text),
    machine: signer.id,
  };
  const full = await signedHeader(unsigned, signer);
  return `${JSON.stringify(full)}\n${text}\n`;
}

/**
 * Read a snapshot file and check it: layout, fingerprint, its authentication by the machine key
 * (`options.key`, by default this machine's: a snapshot is trusted only when rein wrote it here),
 * checksum, JSON. Resolves to undefined when the file is missing or has no readable header; a
 * file that fails a later check comes back with its `problem` and no body. Whether it still fits
 * the log, and is named as its header says, is the caller's check.
 */
export async function readSnapshotFile(
  path: string,
  options: { body?: boolean; key?: MachineKey | undefined } = {},
): Promise<SnapshotFile | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
  return await checkSnapshotText(path, text, options);
}

/**
 * The snapshot whose whole text is `text` (named `path`), checked as {@link readSnapshotFile}
 * checks a file's: undefined when it has no readable header.
 */
export async function checkSnapshotText(
  path: string,
  text: string,
  options: { body?: boolean; key?: MachineKey | undefined } = {},
): Promise<SnapshotFile | undefined> {
  const cut = text.indexOf("\n");
  const header = parseHeader(text.slice(0, cut < 0 ? text.length : cut));
  if (header === undefined) return undefined;
  const problem = headerProblem(header);
  if (problem !== undefined) return { path, header, problem };
  const key = "key" in options ? options.key : await processMachineKey();
  const unsigned = await signatureProblem(header, key);
  if (unsigned !== undefined) return { path, header, problem: unsigned, tampered: true };
  const bodyText = text.slice(cut + 1).replace(/\n$/, "");
  if (await sha256Hex(bodyText) !== header.checksum) {
    return { path, header, problem: "bad checksum", tampered: true };
  }
  if (options.body === false) return { path, header };
  try {
    return { path, header, body: JSON.parse(bodyText) };
  } catch {
    return { path, header, problem: "unparsable body", tampered: true };
  }
}

/**
 * Why `header` is not authenticated by `key` (none here, another machine's, or a signature that
 * does not match its fields), or undefined when it is.
 */
async function signatureProblem(
  header: SnapshotHeader,
  key: MachineKey | undefined,
): Promise<string | undefined> {
  if (key === undefined) return "no machine key on this machine to check it with";
  if (header.machine !== key.id) return "not signed with this machine's key";
  if (header.mac !== await signText(key, signedText(header))) {
    return "its signature does not match its header: changed since rein wrote it";
  }
  return undefined;
}

/**
 * `header` signed with `key`: its `machine` set to the key's id and its `mac` to the signature of
 * every other field. Does not change `header`.
 */
export async function signedHeader(
  header: SnapshotHeader,
  key: MachineKey,
): Promise<SnapshotHeader> {
  const unsigned = { ...header, machine: key.id };
  delete unsigned.mac;
  return { ...unsigned, mac: await signText(key, signedText(unsigned)) };
}

/** What a snapshot's signature covers: every field of its header but the signature. Pure. */
function signedText(header: SnapshotHeader): string {
  const { kind, layout, fingerprint, seq, offset, lineHash, takenAt, sessions, checksum } = header;
  return JSON.stringify([
    "rein snapshot",
    kind,
    layout,
    fingerprint,
    seq,
    offset,
    lineHash,
    takenAt,
    sessions,
    header.session ?? null,
    header.projections ?? null,
    checksum,
    header.machine ?? null,
  ]);
}

/** The longest header read by {@link readSnapshotHeader}, and how much it reads at a time. */
const HEADER_BYTES = 64 << 10;
const HEADER_STEP = 4 << 10;

/**
 * The header of the snapshot file at `path` (its first line), reading only that; undefined when
 * the file is missing or its first line is not a snapshot header. The body is not checked.
 */
export async function readSnapshotHeader(path: string): Promise<SnapshotHeader | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined;
  }
  try {
    let bytes = new Uint8Array(0);
    while (bytes.length < HEADER_BYTES) {
      const chunk = new Uint8Array(HEADER_STEP);
      const read = await file.read(chunk);
      if (read === null) return undefined;
      const joined = new Uint8Array(bytes.length + read);
      joined.set(bytes);
      joined.set(chunk.subarray(0, read), bytes.length);
      bytes = joined;
      const cut = bytes.indexOf(10);
      if (cut >= 0) return parseHeader(new TextDecoder().decode(bytes.subarray(0, cut)));
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/** Why a snapshot with `header` is not this build's to trust (layout, fold code), if so. Pure. */
export function headerProblem(header: SnapshotHeader): string | undefined {
  return header.layout !== LAYOUT
    ? `layout ${header.layout}, this build reads ${LAYOUT}`
    : header.fingerprint !== FOLD_FINGERPRINT
    ? "taken by other fold code"
    : undefined;
}

/** `line` as a snapshot header, or undefined when it is not one. Pure. */
function parseHeader(line: string): SnapshotHeader | undefined {
  try {
    const header = JSON.parse(line);
    if (
      typeof header !== "object" || header === null || typeof header.seq !== "number" ||
      typeof header.offset !== "number" || typeof header.lineHash !== "string"
    ) {
      return undefined;
    }
    return header;
  } catch {
    return undefined;
  }
}
