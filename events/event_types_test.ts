import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { EVENT_TYPES, type ReinPayloads } from "./event_types.ts";
import type { TodoUpdated } from "./payloads/todo.ts";
import type { JobFinished } from "./payloads/job.ts";

/** The event tables (`…_EVENTS`) of every payload file in payloads/, by file name. */
async function payloadTables(): Promise<Record<string, Record<string, unknown>[]>> {
  const dir = new URL("./payloads/", import.meta.url);
  const tables: Record<string, Record<string, unknown>[]> = {};
  for await (const entry of Deno.readDir(fileURLToPath(dir))) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name.startsWith("_")) continue;
    const file: Record<string, unknown> = await import(new URL(entry.name, dir).href);
    tables[entry.name] = Object.entries(file).flatMap(([name, value]) =>
      name.endsWith("_EVENTS") ? [value as Record<string, unknown>] : []
    );
  }
  return tables;
}

Deno.test("EVENT_TYPES lists exactly the types of the payload files' tables, each once", async () => {
  const tables = await payloadTables();
  assert.ok(Object.keys(tables).length >= 14, Object.keys(tables).join());
  const declared = Object.values(tables).flat().flatMap((table) => Object.keys(table));
  assert.deepEqual(
    declared.filter((type, index) => declared.indexOf(type) !== index),
    [],
    "no type is declared by two payload files (the merged table would keep only the last)",
  );
  assert.deepEqual(
    EVENT_TYPES.filter((type, index) => EVENT_TYPES.indexOf(type) !== index),
    [],
    "EVENT_TYPES has no duplicates",
  );
  // A payload file not listed in PAYLOAD_FILES leaves its types out of EVENT_TYPES.
  assert.deepEqual([...EVENT_TYPES].sort(), declared.sort());
});

Deno.test("a payload file's table holds nothing but its types, each true", async () => {
  for (const [file, found] of Object.entries(await payloadTables())) {
    assert.ok(found.length <= 1, `"${file}" exports more than one table`);
    for (const table of found) {
      assert.ok(Object.values(table).every((value) => value === true), file);
    }
  }
});

Deno.test("ReinPayloads is derived with each type's payload", () => {
  // Compile-time: each type's payload is its payload file's, not `unknown` or `never`.
  const todo: ReinPayloads["todo.updated"] = { todos: [] } satisfies TodoUpdated;
  const finished: JobFinished = {
    id: "b1",
    ending: "exited",
    exitCode: 0,
    durationMs: 1,
    outputBytes: 0,
    tail: "",
  } satisfies ReinPayloads["job.finished"];
  assert.deepEqual(todo.todos, []);
  assert.equal(finished.id, "b1");
});

Deno.test("every event type is named noun.verb in lower case", () => {
  for (const type of EVENT_TYPES) assert.match(type, /^[a-z]+\.[a-z]+(_[a-z]+)*$/);
});
