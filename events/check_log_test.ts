import assert from "node:assert/strict";
import { join } from "node:path";
import { checkLog } from "./check_log.ts";
import { line, tempDir } from "../testing/events.ts";

/** What checkLog says of each line of `text`: "ok" or "<kind>: <reason>". */
async function verdicts(text: string): Promise<string[]> {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await Deno.writeTextFile(path, text);
  const found: string[] = [];
  for await (const { raw, problem } of checkLog(path)) {
    found.push(problem ? `${raw.number} ${problem.kind}: ${problem.reason}` : `${raw.number} ok`);
  }
  return found;
}

Deno.test("checkLog goes past a garbage line, and one inserted line is one problem", async () => {
  assert.deepEqual(await verdicts(`${line(1)}\ngarbage\n${line(2)}\n${line(3)}\n`), [
    "1 ok",
    `2 damaged: unexpected token 'g', "garbage" is not valid JSON`,
    "3 ok",
    "4 ok",
  ]);
});

Deno.test("checkLog names a seq gap and a duplicate once each and follows the line's seq", async () => {
  assert.deepEqual(await verdicts(`${line(1)}\n${line(3)}\n${line(4)}\n${line(4)}\n${line(5)}\n`), [
    "1 ok",
    "2 seq: expected seq 2, found 3 (a gap)",
    "3 ok",
    "4 seq: expected seq 5, found 4 (a duplicate or out-of-order seq)",
    "5 ok",
  ]);
});

Deno.test("checkLog reports a bad envelope, invalid UTF-8, a newer version and a torn last line", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const bytes = new TextEncoder().encode(
    `${line(1)}\n{"v":2,"seq":2}\nX\n${line(3, { text: "x" }, 99)}\n${line(3).slice(0, 9)}`,
  );
  bytes[bytes.indexOf(88)] = 0xff; // the "X" line becomes invalid UTF-8
  await Deno.writeFile(path, bytes);
  const found = [];
  for await (const { raw, event, problem } of checkLog(path)) {
    found.push([raw.number, raw.offset, event?.seq ?? null, problem?.kind ?? "ok"]);
  }
  const second = line(1).length + 1;
  assert.deepEqual(found, [
    [1, 0, 1, "ok"],
    [2, second, null, "damaged"],
    [3, second + 16, null, "damaged"],
    [4, second + 18, null, "newer"],
    [5, second + 19 + line(3, { text: "x" }, 99).length, null, "torn"],
  ]);
});

Deno.test("checkLog names the path of a log that is not there", async () => {
  await assert.rejects(
    Array.fromAsync(checkLog("/nonexistent/events.jsonl")),
    (error: Error) =>
      error instanceof Deno.errors.NotFound && /"\/nonexistent\/events\.jsonl"/.test(error.message),
  );
});
