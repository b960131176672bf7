import { reinCatalogProjections } from "../core/harness.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import { catalogSliceOf } from "../core/state/catalog.ts";
import {
  rosterProjection,
  teammateCost,
  type TeammateEntry,
  teammateLine,
} from "../core/team/mod.ts";
import type { CommandIo } from "./io.ts";

/**
 * `rein team`: the workspace's roster (every session's teammates: name, role, status, model,
 * mode, folder, pid, unexpected exits, last action), or with `json` its entries as JSON, from the
 * log's catalog; `session` keeps one session's (an id or its prefix). A missing log has no
 * teammates. Reads the log, never writes it.
 */
export async function teamCommand(
  path: string,
  options: { json: boolean; session?: string | undefined },
  io: CommandIo,
): Promise<number> {
  let entries: TeammateEntry[];
  try {
    const fold = await foldCatalog(path, {
      onNotice: (message) => io.stderr.write(`${message}\n`),
      catalogProjections: reinCatalogProjections(),
    });
    const roster = catalogSliceOf(fold.catalog, rosterProjection);
    entries = roster.order.flatMap((key) => roster.byKey[key] ?? []);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    entries = [];
  }
  const wanted = options.session;
  if (wanted !== undefined) entries = entries.filter((entry) => entry.session.startsWith(wanted));
  if (options.json) {
    const priced = entries.map((entry) => ({ ...entry, costUsd: teammateCost(entry) }));
    io.stdout.write(`${JSON.stringify(priced, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    io.stdout.write(`No teammates in ${path}\n`);
    return 0;
  }
  let session: string | undefined;
  for (const entry of entries) {
    if (entry.session !== session) io.stdout.write(`session ${session = entry.session}\n`);
    io.stdout.write(`  ${teammateLine(entry)}\n`);
  }
  return 0;
}
