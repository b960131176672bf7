import assert from "node:assert/strict";
import {
  assignmentLine,
  DEFAULT_SPARES,
  MAX_SPARES,
  parseAssignment,
  readAssignment,
  READY_LINE,
  Spare,
  spareCount,
  type SpareSetting,
  spareSetting,
  type TeammateLaunch,
} from "./teammate_spare.ts";

Deno.test("spareCount: REIN_TEAMMATE_SPARE, else the settings' teams.spare, else three; a value that is neither a count nor on/off is named with its file, and the default kept", () => {
  const set = (spare: unknown): SpareSetting => ({ spare, path: "/h/.claude/settings.json" });
  assert.deepEqual(spareCount({}, undefined), { count: DEFAULT_SPARES });
  assert.equal(DEFAULT_SPARES, 3);
  for (const no of ["0", "false", "No", " off "]) {
    assert.deepEqual(spareCount({ REIN_TEAMMATE_SPARE: no }, set(5)), { count: 0 }, no);
  }
  for (const yes of ["true", "YES", "on"]) {
    assert.deepEqual(spareCount({ REIN_TEAMMATE_SPARE: yes }, set(false)), { count: 3 });
  }
  assert.deepEqual(spareCount({ REIN_TEAMMATE_SPARE: "1" }, set(5)), { count: 1 });
  assert.deepEqual(spareCount({ REIN_TEAMMATE_SPARE: " 8 " }, undefined), { count: MAX_SPARES });
  assert.deepEqual(spareCount({ REIN_TEAMMATE_SPARE: "" }, set(2)), { count: 2 });
  assert.deepEqual(spareCount({}, set(false)), { count: 0 });
  assert.deepEqual(spareCount({}, set(true)), { count: 3 });
  assert.deepEqual(spareCount({}, set(0)), { count: 0 });

  const many = spareCount({ REIN_TEAMMATE_SPARE: "40" }, undefined);
  assert.equal(many.count, MAX_SPARES);
  assert.match(many.problem ?? "", /^REIN_TEAMMATE_SPARE "40" is more than 8/);
  for (const bad of ["lots", "-1", "2.5", "0x2"]) {
    const told = spareCount({ REIN_TEAMMATE_SPARE: bad }, undefined);
    assert.equal(told.count, 3, bad);
    assert.match(told.problem ?? "", new RegExp(`^REIN_TEAMMATE_SPARE "${bad}" is not a number`));
  }
  // JSON's own values only: a string or a list of a count or a switch is none.
  for (const bad of [1.5, -2, "3", "off", [2], ["off"], null, {}]) {
    const told = spareCount({}, set(bad));
    assert.equal(told.count, 3, JSON.stringify(bad));
    assert.match(
      told.problem ?? "",
      /^The setting "teams": \{"spare": .*\} in "\/h\/\.claude\/settings\.json" is not a number/,
    );
    // What it could say instead: JSON's switches, not the environment's words.
    assert.match(told.problem ?? "", /\(0 to 8\), true or false: 3 are kept$/, told.problem ?? "");
  }
});

Deno.test("spareSetting: the highest settings file that sets teams.spare, though a higher one sets teams without it; a repository's files only in a trusted folder", () => {
  const file = (scope: "cli" | "local" | "project" | "user", teams?: unknown) => ({
    path: `/${scope}.json`,
    scope,
    settings: { other: teams === undefined ? {} : { teams } },
  });
  // The repository's {"enabled": true} does not hide the person's spare count (merged settings
  // keep the highest file's whole "teams").
  const files = [file("local"), file("project", { enabled: true }), file("user", { spare: 0 })];
  assert.deepEqual(spareSetting(files, true), { spare: 0, path: "/user.json" });
  assert.deepEqual(spareCount({}, spareSetting(files, true)), { count: 0 });
  // A trusted repository's own count is the highest.
  const theirs = [file("project", { spare: 5 }), file("user", { spare: 0 })];
  assert.deepEqual(spareSetting(theirs, true), { spare: 5, path: "/project.json" });
  // Untrusted: a cloned repository's files do not say how many processes the person's rein runs.
  assert.deepEqual(spareSetting(theirs, false), { spare: 0, path: "/user.json" });
  assert.equal(
    spareSetting([file("project", { spare: 8 }), file("local", { spare: 8 })], false),
    undefined,
  );
  assert.deepEqual(
    spareSetting([file("cli", { spare: 1 }), file("project", { spare: 8 })], false),
    {
      spare: 1,
      path: "/cli.json",
    },
  );
  assert.equal(spareSetting([], true), undefined);
  assert.equal(spareSetting([file("user", "on"), file("user", null)], true), undefined);
});

Deno.test("an assignment is one JSON line of a session and a teammate's name; anything else is refused", async () => {
  const line = assignmentLine({ session: "s-1", agent: "hank" });
  assert.deepEqual(parseAssignment(line.trim()), { session: "s-1", agent: "hank" });
  for (
    const bad of ["", "{}", '{"session":"s","agent":"-x"}', '{"session":"","agent":"a"}', "[1]"]
  ) {
    assert.throws(() => parseAssignment(bad), /Not a teammate's assignment/, bad);
  }
  // Read from a stream in pieces; an input that ends first is no assignment.
  const bytes = new TextEncoder().encode(line);
  const pieces = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, 5));
      controller.enqueue(bytes.slice(5));
      controller.close();
    },
  });
  assert.deepEqual(await readAssignment(pieces), { session: "s-1", agent: "hank" });
  const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  assert.equal(await readAssignment(empty), undefined);
});

/** A launch of teammate `agent` of session `session`, with `flags`. */
function launch(session: string, agent: string, flags = ["--allow-read=/w"]): TeammateLaunch {
  const reinArgs = ["teammate", "--session", session, "--agent", agent, "--workspace", "/w"];
  return {
    flags,
    denoArgs: ["run", ...flags, "/r/cli/main.ts", ...reinArgs],
    reinArgs,
    cwd: "/w",
    env: { HOME: "/h" },
  };
}

Deno.test("a spare fits a teammate whose launch is its own but for the session and the name; a flag, folder, variable or argument more or less does not", async () => {
  // A process that waits on its stdin, as a spare does.
  const spare = new Spare(
    launch("spare", "spare"),
    (_args, cwd, env, pipes) =>
      new Deno.Command("cat", { cwd: "/", env: { ...env, CWD: cwd }, stdin: pipes, stdout: pipes })
        .spawn(),
  );
  try {
    assert.equal(spare.waiting, true);
    assert.equal(spare.fits(launch("4f1c", "hank")), true);
    assert.equal(spare.fits(launch("4f1c", "hank", ["--allow-read=/w,/m"])), false);
    assert.equal(spare.fits({ ...launch("4f1c", "hank"), cwd: "/w/sub" }), false);
    assert.equal(spare.fits({ ...launch("4f1c", "hank"), env: { HOME: "/h", X: "1" } }), false);
    const more = launch("4f1c", "hank");
    assert.equal(
      spare.fits({
        ...more,
        reinArgs: [...more.reinArgs, "--trust"],
        denoArgs: [...more.denoArgs, "--trust"],
      }),
      false,
    );
    await spare.assign({ session: "4f1c", agent: "hank" });
    assert.equal(spare.waiting, false);
    // What it read: the line, then the end of its input.
    assert.equal((await spare.child.status).code, 0);
  } finally {
    await spare.stop(100);
  }
});

/** A spare whose process is `sh -c script`, its stdin and stdout the spare's pipes. */
function shellSpare(script: string): Spare {
  return new Spare(
    launch("spare", "spare"),
    (_args, _cwd, env, pipes) =>
      new Deno.Command("sh", { args: ["-c", script], env, stdin: pipes, stdout: pipes }).spawn(),
  );
}

Deno.test("a spare is warm once its process says it is ready, until taken; one that ends or says anything else first never is, and what it writes after is drained", async () => {
  const ready = shellSpare(`sleep 0.1; printf '${READY_LINE}'; head -c 300000 /dev/zero; cat`);
  try {
    assert.equal(ready.warm, false);
    assert.equal(await ready.ready, true);
    assert.equal(ready.warm, true);
    assert.equal(ready.waiting, true);
    // 300 kB after the line (more than a pipe holds): drained, so it still reads its input.
    await ready.assign({ session: "s", agent: "hank" });
    assert.equal(ready.warm, false);
    assert.equal((await ready.child.status).code, 0);
  } finally {
    await ready.stop(100);
  }
  const ended = shellSpare("exit 0");
  assert.equal(await ended.ready, false);
  assert.equal(ended.warm, false);
  await ended.stop(100);
  const other = shellSpare("echo 'not ready'; cat");
  try {
    assert.equal(await Promise.race([other.ready, other.child.status.then(() => "ended")]), false);
  } finally {
    await other.stop(100);
  }
  const taken = shellSpare(`read line; printf '${READY_LINE}'`);
  await taken.assign({ session: "s", agent: "hank" });
  assert.equal(await taken.ready, false);
  assert.equal(taken.warm, false);
});
