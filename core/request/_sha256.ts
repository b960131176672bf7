import type { createHash as CreateHash } from "node:crypto";

/**
 * node:crypto's `createHash`, once loaded. Its hash is synchronous, where Web Crypto hands every
 * digest to another thread and back (in a replay of a long session, a third of the time), and it
 * can go on from a copy of its state. Loading it costs ~6 ms, so a start never waits for it: the
 * first digests are Web Crypto's, the load begins with the second (in a live run, while the model
 * answers) and later ones use it. A cache of a built-in module, not state: both hash alike.
 */
let nodeHash: typeof CreateHash | undefined;
let loading: Promise<unknown> | undefined;
let asked = 0;

/**
 * node:crypto's `createHash` when it is loaded, else undefined (the load begins on the second
 * call; where it cannot be loaded, Web Crypto goes on doing the work).
 */
export function loadedCreateHash(): typeof CreateHash | undefined {
  if (nodeHash || ++asked < 2) return nodeHash;
  loading ??= import("node:crypto").then((module) => nodeHash = module.createHash, () => {});
  return undefined;
}

/** The SHA-256 of `bytes` by Web Crypto, in lowercase hex. Pure. */
export async function webSha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
