import assert from "node:assert/strict";
import { join } from "node:path";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { readEvents } from "../events/read_log.ts";
import { fixedClock, prompt, tempDir } from "../testing/events.ts";
import { CURRENT_VERSION } from "../events/event_types.ts";

const FOLLOWER = new URL("./_follower.ts", import.meta.url).pathname;

/** What a follower process printed for one event. */
interface Followed {
  seq: number;
  type: string;
  data: unknown;
}

/** A follower process's stdout, one event a line, as it comes. */
class FollowerOutput {
  readonly lines: Followed[] = [];
  #wake = () => {};
  readonly done: Promise<void>;

  constructor(stdout: ReadableStream<Uint8Array>) {
    this.done = (async () => {
      let pending = "";
      for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
        pending += chunk;
        const parts = pending.split("\n");
        pending = parts.pop() ?? "";
        for (const part of parts) this.lines.push(JSON.parse(part));
        this.#wake();
      }
      this.#wake();
    })();
  }

  /** Resolves once `count` events were printed; rejects after 10 s. */
  async reach(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.lines.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`Expected ${count} events from the follower, got ${this.lines.length}`);
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }
}

Deno.test("a follower with only read permission sees every event once, in order: those before it, those appended while it follows, and a torn last line once it is complete", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  try {
    await store.append([prompt("one"), prompt("two"), prompt("three")], { sync: true });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", `--allow-read=${dir.path}`, FOLLOWER, path, "2", "7"],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).spawn();
    const output = new FollowerOutput(child.stdout);
    const stderr = new Response(child.stderr).text();
    try {
      await output.reach(2);
      assert.deepEqual(output.lines.map((l) => l.seq), [2, 3]);
      // Appended by this process while the other one follows.
      await store.append([prompt("four")]);
      await output.reach(3);
      await store.append([prompt("five", "mate")], { sync: true });
      await output.reach(4);
      // Event 6 written as another writer would, in two parts: half a line, then the rest.
      const line = JSON.stringify({
        v: CURRENT_VERSION,
        seq: 6,
        ts: fixedClock()().toISOString(),
        type: "user.prompted",
        session: "s1",
        agent: "lead",
        data: { text: "six, written slowly" },
      }) + "\n";
      const bytes = new TextEncoder().encode(line);
      const half = Math.floor(bytes.length / 2);
      {
        using file = await Deno.open(path, { append: true });
        await file.write(bytes.subarray(0, half));
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.deepEqual(output.lines.map((l) => l.seq), [2, 3, 4, 5], "no half line");
        await file.write(bytes.subarray(half));
      }
      await output.reach(5);
      // The writer catches up on line 6 (another writer's) and appends 7 after it.
      assert.equal((await store.append([prompt("seven")]))[0]!.seq, 7);
      const status = await child.status;
      await output.done;
      assert.equal(await stderr, "");
      assert.equal(status.code, 0);
    } finally {
      try {
        child.kill();
      } catch { /* already ended */ }
    }
    const logged = (await readEvents(path)).filter((e) => e.seq >= 2);
    assert.deepEqual(
      output.lines,
      logged.map(({ seq, type, data }) => ({ seq, type, data })),
      "every event from seq 2 once, in order, as the log holds it",
    );
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(join(dir.path, ".rein")))).map((e) => e.name).sort(),
      ["events.jsonl"],
      "the follower wrote nothing beside the log",
    );
  } finally {
    await store.close();
  }
});
