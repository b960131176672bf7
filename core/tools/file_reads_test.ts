import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { foldEvents } from "../state/state.ts";
import { contentHash } from "./_content_hash.ts";
import {
  fileReadsProjection,
  MODIFIED_MESSAGE,
  NOT_READ_MESSAGE,
  READ_BEFORE_EDIT,
  readBeforeEditRefusal,
  seenFile,
} from "./file_reads.ts";

function event(seq: number, agent: string, type: string, data: unknown): Envelope {
  return {
    v: 2,
    seq,
    ts: "2026-11-29T00:00:00.000Z",
    session: "s",
    agent,
    type,
    data,
  } as unknown as Envelope;
}

const started = (features: string[]) =>
  event(1, "main", "session.started", {
    model: "m",
    workspace: "/w",
    settings: { files: [], flags: {}, home: "/h", interactive: false, features },
  });

const completed = (seq: number, agent: string, file?: unknown, isError = false) =>
  event(seq, agent, "tool.completed", {
    callId: `c${seq}`,
    name: "read_file",
    content: "",
    isError,
    durationMs: 1,
    ...(file ? { file } : {}),
  });

const seen = { path: "/w/a.ts", mtimeMs: 5, size: 3 };

Deno.test("the fold keeps what each agent saw of each file, and nothing from a failed call", () => {
  const state = foldEvents(
    [
      started([READ_BEFORE_EDIT]),
      completed(2, "main", seen),
      completed(3, "sub", { ...seen, path: "/w/b.ts" }, true),
    ],
    [fileReadsProjection],
  );
  assert.deepEqual(seenFile(state, "s", "main", "/w/a.ts"), seen);
  // A subagent's reads are its own: main's read does not count for it.
  assert.equal(seenFile(state, "s", "sub", "/w/a.ts"), undefined);
  assert.equal(seenFile(state, "s", "sub", "/w/b.ts"), undefined);
});

Deno.test("an edit is refused unread or changed, and never in a session without the feature", async () => {
  const on = foldEvents([started([READ_BEFORE_EDIT]), completed(2, "main", seen)], [
    fileReadsProjection,
  ]);
  const context = (state: typeof on, agent = "main") => ({
    view: () => state,
    session: "s",
    agent,
  });
  assert.equal(await readBeforeEditRefusal(context(on), seen), undefined);
  assert.equal(await readBeforeEditRefusal(context(on), { ...seen, mtimeMs: 6 }), MODIFIED_MESSAGE);
  assert.equal(await readBeforeEditRefusal(context(on), { ...seen, size: 4 }), MODIFIED_MESSAGE);
  assert.equal(
    await readBeforeEditRefusal(context(on), { ...seen, path: "/w/c.ts" }),
    NOT_READ_MESSAGE,
  );
  assert.equal(await readBeforeEditRefusal(context(on, "sub"), seen), NOT_READ_MESSAGE);
  const off = foldEvents([started(["todos"])], [fileReadsProjection]);
  assert.equal(await readBeforeEditRefusal(context(off), { ...seen, path: "/w/c.ts" }), undefined);
});

Deno.test("a file whose time alone changed since a full read may be edited, as in Claude Code", async () => {
  const bytes = new TextEncoder().encode("abc");
  const full = { ...seen, hash: contentHash(bytes) };
  const state = foldEvents([started([READ_BEFORE_EDIT]), completed(2, "main", full)], [
    fileReadsProjection,
  ]);
  const context = { view: () => state, session: "s", agent: "main" };
  const touched = { ...seen, mtimeMs: 9 };
  assert.equal(
    await readBeforeEditRefusal(context, touched, () => Promise.resolve(bytes)),
    undefined,
  );
  const other = new TextEncoder().encode("abd");
  assert.equal(
    await readBeforeEditRefusal(context, touched, () => Promise.resolve(other)),
    MODIFIED_MESSAGE,
  );
  // Without the content to compare, a changed time is a change.
  assert.equal(await readBeforeEditRefusal(context, touched), MODIFIED_MESSAGE);
});
