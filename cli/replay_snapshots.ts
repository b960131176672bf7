import { snapshotCoverage } from "../core/snapshots/mod.ts";

/**
 * For `replay --verify`: one line for each snapshot file beside the log at `path` that rein's own
 * writes on this machine would never have left (not signed with this machine's key, a signature
 * or checksum that does not match, a catalog named for another seq than it holds): changed or
 * written by something else, or brought from elsewhere. rein never trusts such a file (it reads
 * the log instead), but a verification names it and fails. Snapshots of other fold code or
 * layout, or whose place the log no longer holds, are stale, not forged: they are left out.
 * Reads only; never throws for a bad file.
 */
export async function forgedSnapshots(path: string): Promise<string[]> {
  const found = await snapshotCoverage(path);
  return found.filter((s) => s.tampered).map((s) =>
    `Snapshot "${s.path}" cannot be trusted: ${s.problem ?? "not written by rein here"} ` +
    "(rein ignores it and reads the log; remove it)"
  );
}
