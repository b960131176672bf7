import assert from "node:assert/strict";
import { join } from "node:path";
import { LogCorruptionError, LogVersionError } from "./errors.ts";
import { openJsonlStore } from "./jsonl_store.ts";
import { CURRENT_VERSION } from "./event_types.ts";
import { UPCASTERS } from "./upcast.ts";
import { fixedClock, line, prompt, rejection, tempDir } from "../testing/events.ts";

async function writeLog(path: string, lines: string[]): Promise<void> {
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
}

async function assertRefused(lines: string[], badLine: number, reason: RegExp): Promise<void> {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await writeLog(path, lines);
  const before = await Deno.readFile(path);
  const error = await rejection(openJsonlStore(path, { clock: fixedClock() }));
  assert.ok(error instanceof LogCorruptionError, String(error));
  assert.equal(error.file, path);
  assert.equal(error.line, badLine);
  assert.match(error.reason, reason);
  assert.equal(error.message, `Cannot read event at line ${badLine} of "${path}": ${error.reason}`);
  assert.deepEqual(await Deno.readFile(path), before, "a refused log is left untouched");
}

Deno.test("opening creates the log and its parent directories", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "a", ".rein", "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  assert.equal(store.lastSeq, 0);
  await store.append([prompt("hello")], { sync: true });
  await store.close();
  assert.equal(await Deno.readTextFile(path), `${line(1, { text: "hello" })}\n`);
});

Deno.test("a line of bad JSON in the middle is refused with file, line and reason", async () => {
  await assertRefused(
    [line(1), `{"v":${CURRENT_VERSION},"seq":`, line(3)],
    2,
    /^unexpected end of JSON input$/,
  );
});

Deno.test("a line missing a field is refused with file, line and reason", async () => {
  const noAgent = line(2).replace(',"agent":"lead"', "");
  await assertRefused([line(1), noAgent, line(3)], 2, /^missing "agent"$/);
});

Deno.test("a seq gap, a duplicate and an out-of-order seq are refused", async () => {
  await assertRefused([line(1), line(3), line(4)], 2, /expected seq 2, found 3 \(a gap\)/);
  await assertRefused([line(1), line(1), line(2)], 2, /expected seq 2, found 1/);
  await assertRefused([line(2), line(1)], 1, /expected seq 1, found 2/);
});

Deno.test("an empty line, an unknown type and invalid UTF-8 are refused", async () => {
  await assertRefused([line(1), "", line(2)], 2, /^empty line$/);
  const unknown = line(2).replace("user.prompted", "user.shouted");
  await assertRefused([line(1), unknown, line(3)], 2, /unknown event type "user.shouted"/);
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const bytes = new TextEncoder().encode(`${line(1)}\n${line(2, { text: "AB" })}\n`);
  bytes[bytes.indexOf(0x41)] = 0xff;
  await Deno.writeFile(path, bytes);
  await assert.rejects(openJsonlStore(path, { clock: fixedClock() }), (error) => {
    return error instanceof LogCorruptionError && error.line === 2 &&
      error.reason === "invalid UTF-8";
  });
});

Deno.test("a log written by a newer rein is refused naming file, line and version", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await writeLog(path, [line(1), line(2, undefined, 7)]);
  const error = await rejection(openJsonlStore(path, { clock: fixedClock() }));
  assert.ok(error instanceof LogVersionError);
  assert.equal(error.file, path);
  assert.equal(error.line, 2);
  assert.equal(error.version, 7);
  assert.match(
    error.message,
    /line 2 of ".*events\.jsonl": written by a newer rein \(event version 7/,
  );
});

Deno.test("old lines are upcast on open with the given upcaster table", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await writeLog(path, [line(1, { prompt: "from v0" }, 0), line(2, undefined, 1), line(3)]);
  await assert.rejects(openJsonlStore(path, { clock: fixedClock() }), /no upcaster from version 0/);
  const texts: unknown[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onEvent: (e) => texts.push(e.v, e.data),
    upcasters: {
      ...UPCASTERS,
      0: (raw) => ({ ...raw, data: { text: (raw.data as { prompt: string }).prompt } }),
    },
  });
  await store.close();
  assert.deepEqual(texts, [2, { text: "from v0" }, 2, { text: "p2" }, 2, { text: "p3" }]);
});

Deno.test("corruption written by another process is refused on catch-up", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")]);
  await Deno.writeTextFile(path, `${line(5)}\n`, { append: true });
  const error = await rejection(store.append([prompt("b")]));
  assert.match(String(error), /Line 2 of .*not the next event \(expected seq 2, found 5/);
  assert.ok(error instanceof Error && error.cause instanceof LogCorruptionError);
  assert.equal(error.cause.line, 2);
  await store.close();
});

Deno.test("a known secret never appears in the file's bytes", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const secret = 'sk-ant-"quoted"\\key-0123456789';
  const store = await openJsonlStore(path, { clock: fixedClock(), secrets: [secret] });
  await store.append([
    prompt(`my key is ${secret}`),
    {
      type: "tool.completed",
      session: "s1",
      agent: "lead",
      data: {
        callId: "c1",
        name: "bash",
        content: JSON.stringify({ env: { ANTHROPIC_API_KEY: secret } }),
        isError: false,
        durationMs: 3,
      },
    },
  ], { sync: true });
  await store.close();
  const bytes = await Deno.readFile(path);
  const text = new TextDecoder().decode(bytes);
  for (const form of [secret, JSON.stringify(secret), JSON.stringify(JSON.stringify(secret))]) {
    assert.ok(!text.includes(form.replace(/^"|"$/g, "")), `found ${form}`);
  }
  assert.equal(text.split("[REDACTED]").length - 1, 2);
});

Deno.test("a failed sync poisons the store: later appends and syncs throw, sync is not retried", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")], { sync: true });
  const original = Deno.FsFile.prototype.syncData;
  let calls = 0;
  Deno.FsFile.prototype.syncData = () => {
    calls++;
    return Promise.reject(new Deno.errors.Interrupted("EIO: disk went away"));
  };
  try {
    await assert.rejects(store.append([prompt("b")], { sync: true }), /Cannot sync/);
    await assert.rejects(store.append([prompt("c")]), /earlier sync or write failed/);
    await assert.rejects(store.sync(), /earlier sync or write failed/);
  } finally {
    Deno.FsFile.prototype.syncData = original;
  }
  assert.equal(calls, 1);
  await assert.rejects(store.append([prompt("d")], { sync: true }), /earlier sync/);
  await store.close();
});

Deno.test("an explicit sync failure poisons the store too", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")]);
  const original = Deno.FsFile.prototype.syncData;
  Deno.FsFile.prototype.syncData = () => Promise.reject(new Error("EIO"));
  try {
    await assert.rejects(store.sync(), /Cannot sync/);
  } finally {
    Deno.FsFile.prototype.syncData = original;
  }
  await assert.rejects(store.append([prompt("b")]), /earlier sync/);
  await store.close();
});

Deno.test("an event that cannot be read back is refused before anything is written", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  const bad = { ...prompt("x"), type: "user.shouted" } as unknown as ReturnType<typeof prompt>;
  await assert.rejects(store.append([prompt("ok"), bad]), TypeError);
  assert.equal(await Deno.readTextFile(path), "");
  assert.equal((await store.append([prompt("a")]))[0]?.seq, 1);
  await store.close();
});

Deno.test("after refusing a damaged line, every later call names the same line", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const seen: number[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onEvent: (e) => seen.push(e.seq),
  });
  await Deno.writeTextFile(path, `${line(1)}\n${line(2)}\n{oops\n`);
  const error = await rejection(store.catchUp());
  assert.match(String(error), /Line 3 of .*in JSON at position 1/);
  await assert.rejects(store.append([prompt("x")]), { message: (error as Error).message });
  await assert.rejects(store.catchUp(), { message: (error as Error).message });
  assert.deepEqual(seen, [1, 2]);
  assert.equal(store.lastSeq, 2);
  await store.close();
});

Deno.test("an idle waitForAppend only stats the log; it locks once the file has grown", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")]);
  const original = Deno.FsFile.prototype.lock;
  let locks = 0;
  Deno.FsFile.prototype.lock = function (this: Deno.FsFile, exclusive?: boolean) {
    locks++;
    return original.call(this, exclusive);
  };
  try {
    const waiting = store.waitForAppend(1, new AbortController().signal, 5);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(locks, 0, "about ten idle polls, no lock");
    await Deno.writeTextFile(path, `${line(2)}\n`, { append: true });
    assert.deepEqual((await waiting).map((e) => [e.seq, e.data]), [[2, { text: "p2" }]]);
    assert.equal(locks, 1);
  } finally {
    Deno.FsFile.prototype.lock = original;
    await store.close();
  }
});
