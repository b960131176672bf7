import type { createHash as CreateHash, Hash } from "node:crypto";
import { type CanonicalChunk, joinChunks } from "./canonical_json.ts";

/**
 * node:crypto's `createHash`, once loaded. Its hash is synchronous, where Web Crypto hands every
 * digest to another thread and back (in a replay of a long session, a third of the time), and it
 * can go on from a copy of its state. Loading it costs ~6 ms, so a start never waits for it: the
 * first digests are Web Crypto's, the load begins with the second (in a live run, while the model
 * answers) and later ones use it. A cache of a built-in module, not state: both hash alike.
 */
let nodeHash: typeof CreateHash | undefined;
let loading: Promise<unknown> | undefined;
let digests = 0;

/** The first `length` chunks of a digest, and the hash state after them. */
interface HashedPrefix {
  chunks: readonly CanonicalChunk[];
  length: number;
  hash: Hash;
}

/** The prefix each `resume.key` last kept (see {@link sha256Hex}). */
const PREFIXES = new WeakMap<object, HashedPrefix>();

/**
 * The SHA-256 of `chunks` joined, in lowercase hex. With `resume`, the state after the first
 * `resume.keep` chunks is kept under `resume.key`, and a later call with that key whose chunks
 * begin with the same ones (the same arrays, equal text) hashes only the rest: a conversation's
 * request is its previous request's start plus what is new. Pure: the digest depends on the
 * bytes alone.
 */
export async function sha256Hex(
  chunks: readonly CanonicalChunk[],
  resume?: { key: object; keep: number },
): Promise<string> {
  if (!nodeHash) {
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", joinChunks(chunks)));
    digests += 1;
    // Where it cannot be loaded, Web Crypto goes on doing the work.
    if (digests > 1) {
      loading ??= import("node:crypto").then((module) => nodeHash = module.createHash, () => {});
    }
    return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }
  if (!resume) return nodeHash("sha256").update(joinChunks(chunks)).digest("hex");
  const keep = Math.max(0, Math.min(resume.keep, chunks.length));
  const known = PREFIXES.get(resume.key);
  const from = known && known.length <= keep && startsWith(chunks, known) ? known.length : 0;
  const hash = from > 0 && known ? known.hash.copy() : nodeHash("sha256");
  if (keep > from) {
    hash.update(joinChunks(chunks, from, keep));
    PREFIXES.set(resume.key, { chunks, length: keep, hash: hash.copy() });
  }
  if (keep < chunks.length) hash.update(joinChunks(chunks, keep));
  return hash.digest("hex");
}

function startsWith(chunks: readonly CanonicalChunk[], prefix: HashedPrefix): boolean {
  for (let i = 0; i < prefix.length; i++) if (chunks[i] !== prefix.chunks[i]) return false;
  return true;
}
