import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempWorkspace } from "./_cli.ts";

const GOLDEN = new URL("./golden/", import.meta.url);
/** Replay may read the log and the environment; it gets no net, run or write permission. */
const REPLAY_ONLY = ["--allow-read", "--allow-env"];
const REGENERATE =
  "If you changed the system prompt, a tool schema or an event shape on purpose, " +
  "regenerate the goldens with `deno task golden` and review their diff";

type Line = { seq: number; type: string; data: Record<string, unknown> };

async function goldenNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(GOLDEN)) {
    if (entry.name.endsWith(".jsonl")) names.push(entry.name);
  }
  return names.sort();
}

async function readLines(name: string): Promise<Line[]> {
  return (await Deno.readTextFile(new URL(name, GOLDEN))).split("\n").filter(Boolean).map((l) =>
    JSON.parse(l)
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** six_tools.jsonl copied alone into a temp dir, and the workspace its session recorded. */
async function sixToolsCopy(dir: string): Promise<{ copy: string; workspace: string }> {
  const copy = join(dir, "six_tools.jsonl");
  await Deno.copyFile(new URL("six_tools.jsonl", GOLDEN), copy);
  const started = (await readLines("six_tools.jsonl")).find((l) => l.type === "session.started");
  const workspace = started?.data.workspace;
  assert.ok(typeof workspace === "string");
  return { copy, workspace };
}

async function replayEdited(lines: Line[]) {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    return await runCli(["replay", path, "--verify", "-q"], { permissions: REPLAY_ONLY });
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("the golden logs cover crash, resume, fork, cancel and every model fault", async () => {
  const all = (await Promise.all((await goldenNames()).map(readLines))).flat();
  const outcomes = new Set(all.flatMap((l) => l.type === "tool.completed" ? [l.data.outcome] : []));
  assert.ok(outcomes.has("interrupted") && outcomes.has("cancelled"));
  const kinds = new Set(all.flatMap((l) => l.type === "model.failed" ? [l.data.kind] : []));
  for (
    const kind of ["rate_limited", "overloaded", "server_error", "stream_cut", "prompt_too_long"]
  ) {
    assert.ok(kinds.has(kind), `no golden has a ${kind} failure`);
  }
  assert.ok(all.some((l) => l.type === "session.started" && l.data.forkedFrom));
  assert.ok(all.some((l) => l.type === "session.resumed"));
});

for (const name of await goldenNames()) {
  Deno.test(`golden ${name} replays offline with --verify`, async () => {
    const result = await runCli(["replay", new URL(name, GOLDEN).pathname, "--verify"], {
      permissions: REPLAY_ONLY,
    });
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}\n${REGENERATE}`);
    assert.doesNotMatch(result.stdout, /diverges/);
  });
}

Deno.test("a golden with one tool input edited inside a model response fails --verify at that call", async () => {
  const lines = await readLines("six_tools.jsonl");
  const responded = lines.filter((l) => l.type === "model.responded")[2];
  assert.ok(responded);
  const content = responded.data.content as Array<{ type: string; id?: string; input?: unknown }>;
  const call = content.find((b) => b.type === "tool_use");
  assert.ok(call);
  call.input = { path: "/etc/passwd", old_string: "root", new_string: "toor" };
  const requested = lines.find((l) => l.type === "tool.requested" && l.data.callId === call.id);
  const result = await replayEdited(lines);
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    new RegExp(
      `diverges at seq ${requested?.seq}: the replayed loop produced a different tool\\.requested`,
    ),
  );
});

Deno.test("a golden with one tool result edited fails --verify at the next model request", async () => {
  const lines = await readLines("six_tools.jsonl");
  const index = lines.findIndex((l) => l.type === "tool.completed");
  const completed = lines[index];
  assert.ok(completed);
  completed.data.content = "an edited result";
  const next = lines.slice(index).find((l) => l.type === "model.requested");
  const result = await replayEdited(lines);
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    new RegExp(
      `diverges at seq ${next?.seq}: the replayed loop would send a different model request`,
    ),
  );
});

Deno.test("a golden that writes and edits files replays with --verify while its workspace does not exist", async () => {
  await using dir = await tempWorkspace();
  const { copy, workspace } = await sixToolsCopy(dir.path);
  // The workspace is part of the system prompt, so rewriting it in the copy would change every
  // request's digest and fail --verify: the recorded one must simply be absent here.
  assert.equal(
    await exists(workspace),
    false,
    `"${workspace}", the workspace recorded in six_tools.jsonl, exists on this machine; ` +
      "remove it (a golden run that did not clean up?) so replay is shown to need only the log",
  );
  const result = await runCli(["replay", copy, "--verify"], { permissions: REPLAY_ONLY });
  assert.equal(result.code, 0, `${result.stdout}${result.stderr}\n${REGENERATE}`);
  assert.match(result.stdout, /● write_file notes\/golden\.txt/);
  assert.match(result.stdout, /● edit_file notes\/golden\.txt/);
  assert.match(result.stdout, /all match the log/);
  assert.equal(await exists(workspace), false, `replay created "${workspace}"`);
  const beside = [];
  for await (const entry of Deno.readDir(dir.path)) beside.push(entry.name);
  assert.deepEqual(beside, ["six_tools.jsonl"], "replay wrote beside the log");
});

Deno.test("replay --verify needs read permission on the log file alone", async () => {
  await using dir = await tempWorkspace();
  const { copy } = await sixToolsCopy(dir.path);
  const result = await runCli(["replay", copy, "--verify", "-q"], {
    permissions: [`--allow-read=${copy}`, "--allow-env"],
  });
  assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  assert.match(result.stdout, /all match the log/);
});
