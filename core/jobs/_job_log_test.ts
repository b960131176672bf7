import assert from "node:assert/strict";
import { join } from "node:path";
import { JobLog } from "./_job_log.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function withLog(maxBytes: number, body: (log: JobLog, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "job.log");
  try {
    await body(new JobLog(await Deno.open(path, { write: true, createNew: true }), maxBytes), path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a log within its cap is the job's output, byte for byte", async () => {
  await withLog(1024, async (log, path) => {
    const bytes = new Uint8Array(1024).map((_, i) => i % 251);
    for (let at = 0; at < bytes.length; at += 100) log.push(bytes.slice(at, at + 100));
    const kept = await log.close();
    assert.equal(kept.droppedBytes, 0);
    assert.deepEqual(await Deno.readFile(path), bytes);
  });
});

Deno.test("a log past its cap holds the head, the note and the tail, and never more than the cap", async () => {
  await withLog(4096, async (log, path) => {
    let most = 0;
    for (let i = 0; i < 2000; i++) {
      log.push(encode(`line ${i}\n`));
      if (i % 100 === 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        most = Math.max(most, (await Deno.stat(path)).size);
      }
    }
    const snapshot = log.snapshot();
    const kept = await log.close();
    const text = await Deno.readTextFile(path);
    assert.ok(most <= 4096 && text.length <= 4096, `${most}, ${text.length}`);
    assert.equal(text, new TextDecoder().decode(snapshot.bytes));
    assert.equal(snapshot.outputBytes, log.totalBytes);
    assert.ok(text.startsWith("line 0\nline 1\n"));
    assert.ok(text.endsWith("line 1998\nline 1999\n"));
    assert.ok(text.includes(`[… ${kept.droppedBytes.toLocaleString("en-US")} bytes cut …]\n`));
    assert.equal(kept.droppedBytes, snapshot.droppedBytes);
  });
});

Deno.test("a first chunk past the cap still puts its head in the file", async () => {
  await withLog(1024, async (log, path) => {
    log.push(encode(`${"a".repeat(3000)}${"b".repeat(3000)}`));
    await log.close();
    const text = await Deno.readTextFile(path);
    assert.ok(text.length <= 1024);
    assert.match(text, /^a{512}\n\[… 5,\d{3} bytes cut …\]\nb+$/);
  });
});
