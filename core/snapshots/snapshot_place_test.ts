import assert from "node:assert/strict";
import { emptyCatalog } from "../state/catalog.ts";
import { latestCatalog, writeCatalogSnapshot } from "./catalog_snapshot.ts";
import { rowSnapshots, type SnapshotRows } from "./snapshot_place.ts";

/** A database's snapshot rows and log lines, in memory. */
function memoryRows(lines: Map<number, string>): SnapshotRows & { texts: Map<string, string> } {
  const texts = new Map<string, string>();
  return {
    texts,
    names: (prefix = "") =>
      Promise.resolve([...texts.keys()].filter((name) => name.startsWith(prefix)).sort()),
    read: (name) => Promise.resolve(texts.get(name)),
    write: (name, _seq, text) => Promise.resolve(void texts.set(name, text)),
    remove: (name) => Promise.resolve(texts.delete(name)),
    line: (seq) => Promise.resolve(lines.get(seq)),
  };
}

Deno.test("a catalog snapshot in a database's rows is trusted while the log holds its event's line, and only then", async () => {
  const lines = new Map([[1, '{"v":1,"seq":1}'], [2, '{"v":1,"seq":2}']]);
  const rows = memoryRows(lines);
  const place = rowSnapshots(rows, "db (log x) snapshots");
  const catalog = { ...emptyCatalog(), order: ["s1"] };
  assert.equal(
    await writeCatalogSnapshot(place, { catalog, seq: 2, offset: 32 }, new Date()),
    true,
  );
  assert.deepEqual([...rows.texts.keys()], ["catalog-000000000002.json"]);
  const found = await latestCatalog(place);
  assert.deepEqual(found?.catalog.order, ["s1"]);
  assert.deepEqual(found?.point.seq, 2);
  assert.equal(found?.point.offset, 32);
  assert.equal(found?.path, "db (log x) snapshots/catalog-000000000002.json");
  // The log no longer holds that line (replaced): not trusted.
  lines.set(2, '{"v":1,"seq":2,"other":true}');
  assert.equal(await latestCatalog(place), undefined);
  // Nor a place past the log's end.
  assert.equal(
    await writeCatalogSnapshot(place, { catalog, seq: 9, offset: 99 }, new Date()),
    false,
  );
});

Deno.test("a row named otherwise than a snapshot file is not listed as a snapshot (no path out of the folder)", async () => {
  const rows = memoryRows(new Map());
  rows.texts.set("sessions/../../escape.json", "x");
  rows.texts.set("sessions/a%2Fb.json", "x");
  rows.texts.set("catalog-12.json.tmp", "x");
  rows.texts.set("catalog-000000000003.json", "x");
  const place = rowSnapshots(rows, "db");
  assert.deepEqual(await place.sessionNames(), ["sessions/a%2Fb.json"]);
  assert.deepEqual(await place.catalogNames(), ["catalog-000000000003.json"]);
});
