/**
 * `rein view` at scale: `deno bench -A bench/view_bench.ts`. The large workspace's log
 * (`REIN_BENCH_EVENTS` events, default 1,000,000, ~450 MB: bench/_scale_log.ts, generated once and
 * cached, with the catalog and last-session snapshots a workspace holds after its last session
 * closed, taken with every mechanism's slices as rein's own process takes them) is served by a fresh view server (in this process, on loopback) for each iteration:
 *
 * - **open the last session**: the session's page as the browser gets it, in one request (its
 *   panels folded at the log's end from the snapshots, and the last rows of its timeline, paged:
 *   never the whole log). Target < 1 s.
 * - **sessions list**: the list page, from the catalog snapshot.
 * - **scrub back**: the last session's state 50 events before its end, asked right after the
 *   page opened (before the background pass's checkpoints exist: folded from the snapshots).
 *
 * Each iteration's server is closed before the next; the time includes its start. A quick run:
 * `REIN_BENCH_EVENTS=20000 deno bench -A bench/view_bench.ts`.
 *
 * @module
 */
import { startViewServer } from "../cli/view/view_server.ts";
import { buildSnapshot } from "../core/snapshots/mod.ts";
import { reinCatalogProjections, reinProjections } from "../core/harness.ts";
import { scaleEvents, scaleLog } from "./_scale_log.ts";

const EVENTS = scaleEvents();
const SIZE = EVENTS >= 1_000_000 ? `${EVENTS / 1_000_000}M` : `${EVENTS / 1000}k`;
const large = await scaleLog(EVENTS);
const last = large.sessions.at(-1);
if (last === undefined) throw new Error("The generated log has no session");
// The snapshots rein's own process leaves when its session closes: the catalog with every
// workspace-wide slice, the last session with every mechanism's (what rein view folds from).
await buildSnapshot(large.path, {
  sessions: [last.id],
  projections: reinProjections(),
  catalogProjections: reinCatalogProjections(),
});

/** A page of the served log, read whole; throws unless it is 200. */
async function get(url: string): Promise<string> {
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${url}: ${body}`);
  return body;
}

Deno.bench(`rein view: open the last session of a ${SIZE}-event log`, async (b) => {
  const server = await startViewServer({ log: large.path });
  try {
    b.start();
    await get(`http://127.0.0.1:${server.port}/session/${last.id}?t=${server.token}`);
    b.end();
  } finally {
    await server.close();
  }
});

Deno.bench(`rein view: the sessions list of a ${SIZE}-event log`, async (b) => {
  const server = await startViewServer({ log: large.path });
  try {
    b.start();
    await get(server.url);
    b.end();
  } finally {
    await server.close();
  }
});

Deno.bench(`rein view: the last session's state 50 events before its end (${SIZE})`, async (b) => {
  const server = await startViewServer({ log: large.path });
  try {
    const base = `http://127.0.0.1:${server.port}/session/${last.id}`;
    await get(`${base}?t=${server.token}`);
    b.start();
    await get(
      `${base.replace("/session/", "/api/session/")}/state?at=${
        Math.max(last.firstSeq, last.lastSeq - 50)
      }&t=${server.token}`,
    );
    b.end();
  } finally {
    await server.close();
  }
});
