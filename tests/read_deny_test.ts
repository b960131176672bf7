/**
 * Read deny rules hold for grep and glob (issue 20, §5), end to end against the fake model: a
 * repository whose secrets the person's settings deny (`Read(./.env)`, `Read(./secrets/**)`), a
 * model that searches the whole workspace for them, lists every file, or reaches them through a
 * committed symlink. Neither the secret nor the denied file's name reaches the model, and each
 * log replays with `--verify`'s check.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { message, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";

const SECRET = "sk-live-4f9a2c7e";
/** A pattern that finds the secret without spelling it (the tool echoes a pattern it misses). */
const SECRET_PATTERN = "sk-live-[0-9a-f]+";

/** A model that makes `calls`, one per answer, then stops. */
function callsInTurn(calls: readonly { name: string; input: Record<string, unknown> }[]) {
  const script: FakeScriptFn = (request) => {
    const done = toolResultCount(request.body);
    const call = calls[done];
    return call ? message([toolUse(`toolu_${done}`, call.name, call.input)]) : message("Done");
  };
  return script;
}

/**
 * Run `calls` in a session over `files` whose project settings deny `deny`, after `prepare` (to
 * plant symlinks); the results of the calls, in order, once the log has replayed unchanged.
 */
async function resultsOf(
  files: Record<string, string>,
  deny: string[],
  calls: { name: string; input: Record<string, unknown> }[],
  prepare: (workspace: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ content: string; isError: boolean }[]> {
  await using rig = await startTestSession(callsInTurn(calls), {
    workspaceFiles: files,
    recordSettings: { settings: { permissions: { deny } } },
  });
  await prepare(rig.workspace);
  const result = await rig.session.prompt("Find the API token", {
    signal: new AbortController().signal,
    maxTurns: null,
  });
  assert.equal(result.reason, "completed", result.message ?? "");
  const events: Envelope[] = rig.events();
  const replayed = await replaySession(events);
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  return events.flatMap((e) =>
    e.type === "tool.completed" ? [{ content: e.data.content, isError: e.data.isError }] : []
  );
}

const REPO = {
  ".env": `API_TOKEN=${SECRET}\n`,
  "src/config.ts": "export const token = secret('API_TOKEN');\n",
};

Deno.test("grep over the workspace in every output mode does not show a file Read(./.env) denies", async () => {
  const results = await resultsOf(REPO, ["Read(./.env)"], [
    { name: "grep", input: { pattern: "API_TOKEN", output_mode: "content" } },
    { name: "grep", input: { pattern: SECRET_PATTERN } },
    { name: "grep", input: { pattern: "API_TOKEN", output_mode: "count" } },
    { name: "grep", input: { pattern: "API_TOKEN", output_mode: "files_with_matches" } },
  ]);
  assert.equal(results.length, 4);
  for (const result of results) {
    assert.doesNotMatch(result.content, new RegExp(`${SECRET}|\\.env`), result.content);
  }
  assert.match(results[0]?.content ?? "", /^src\/config\.ts:1:export const token/);
  assert.match(results[1]?.content ?? "", /^No matches for/);
  assert.match(results[2]?.content ?? "", /^src\/config\.ts:1\n/);
  assert.match(results[3]?.content ?? "", /^src\/config\.ts\n\[1 file not searched/);
});

Deno.test("Read(./secrets/**) keeps grep out of a file nested under the directory", async () => {
  const results = await resultsOf(
    { "secrets/prod/db.env": `DB_PASSWORD=${SECRET}\n`, "README.md": "no secrets here\n" },
    ["Read(./secrets/**)"],
    [
      { name: "grep", input: { pattern: SECRET_PATTERN, output_mode: "content" } },
      { name: "grep", input: { pattern: "DB_PASSWORD", path: "secrets" } },
      { name: "glob", input: { pattern: "secrets/**/*" } },
    ],
  );
  for (const result of results) {
    assert.doesNotMatch(result.content, new RegExp(`${SECRET}|db\\.env`), result.content);
  }
  assert.match(results[0]?.content ?? "", /^No matches for/);
});

Deno.test("glob **/* does not list the file Read(./.env) denies", async () => {
  const results = await resultsOf(REPO, ["Read(./.env)"], [
    { name: "glob", input: { pattern: "**/*" } },
    { name: "glob", input: { pattern: ".env*" } },
  ]);
  assert.equal(
    results[0]?.content,
    "src/config.ts\n[1 file not listed: a Read deny rule covers it]",
  );
  assert.doesNotMatch(results[1]?.content ?? "", /^\.env$/m);
});

Deno.test("a committed symlink notes -> .env does not lead grep to the secret", async () => {
  const results = await resultsOf(
    REPO,
    ["Read(./.env)"],
    [
      { name: "grep", input: { pattern: SECRET_PATTERN, output_mode: "content" } },
      { name: "grep", input: { pattern: "API_TOKEN", path: "notes", output_mode: "content" } },
      { name: "glob", input: { pattern: "*" } },
    ],
    (workspace) => Deno.symlink(".env", join(workspace, "notes")),
  );
  for (const result of results) {
    assert.doesNotMatch(result.content, new RegExp(SECRET), result.content);
  }
  assert.match(results[0]?.content ?? "", /^No matches for/);
  assert.equal(results[1]?.isError, true);
  // The link leads to a denied file: it is left out of the list as the file itself is.
  assert.equal(
    results[2]?.content,
    'No files match "*"\n[2 files not listed: Read deny rules cover them]',
  );
});
