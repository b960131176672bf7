import assert from "node:assert/strict";
import {
  assignmentLine,
  parseAssignment,
  readAssignment,
  Spare,
  spareAllowed,
  type TeammateLaunch,
} from "./teammate_spare.ts";

Deno.test("spareAllowed: on unless REIN_TEAMMATE_SPARE says no or the settings' teams.spare is false", () => {
  assert.equal(spareAllowed({}, undefined), true);
  assert.equal(spareAllowed({ REIN_TEAMMATE_SPARE: "1" }, { enabled: true }), true);
  for (const no of ["0", "false", "No", " off "]) {
    assert.equal(spareAllowed({ REIN_TEAMMATE_SPARE: no }, undefined), false, no);
  }
  assert.equal(spareAllowed({}, { spare: false }), false);
  assert.equal(spareAllowed({}, { spare: true }), true);
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
    (_args, cwd, env, stdin) =>
      new Deno.Command("cat", { cwd: "/", env: { ...env, CWD: cwd }, stdin, stdout: "null" })
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
