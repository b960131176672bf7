import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../testing/events.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "../core/sandbox/mod.ts";
import { sandboxForRun } from "./_sandbox_probe.ts";

/** A bwrap that counts its starts in `count`, and works only while `broken` does not exist. */
async function countingBwrap(dir: string): Promise<{ path: string; starts(): Promise<number> }> {
  const path = join(dir, "bwrap");
  const count = join(dir, "count");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\necho x >> "${count}"\n[ -e "${dir}/broken" ] && exit 1\nexec bwrap "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return {
    path,
    starts: () => Deno.readTextFile(count).then((text) => text.split("\n").length - 1, () => 0),
  };
}

Deno.test("a run that trusts an earlier probe starts bwrap once, for its first command, and says when it stopped working", async () => {
  await using dir = await tempDir();
  const workspace = join(dir.path, "ws");
  await Deno.mkdir(workspace);
  const bwrap = await countingBwrap(dir.path);
  const notices: string[] = [];
  const options = {
    settings: { ...DEFAULT_SANDBOX_SETTINGS },
    workspace,
    env: {},
    bwrap: bwrap.path,
  };
  const first = await sandboxForRun(options, dir.path, (m) => notices.push(m));
  assert.ok(first.resolution.ok && first.resolution.sandbox, "the first run probes and confines");
  assert.equal(await bwrap.starts(), 1);

  const second = await sandboxForRun(options, dir.path, (m) => notices.push(m));
  assert.ok(second.resolution.ok && second.resolution.sandbox, "recorded as confined");
  assert.equal(await bwrap.starts(), 1, "nothing started on the way to the first request");
  assert.ok(await second.confirmed);
  assert.ok(await second.confirmed);
  assert.equal(await bwrap.starts(), 2, "one probe, for the first command");

  await Deno.writeTextFile(join(dir.path, "broken"), "");
  const third = await sandboxForRun(options, dir.path, (m) => notices.push(m));
  assert.ok(third.resolution.ok && third.resolution.sandbox);
  assert.equal(await third.confirmed, undefined);
  assert.equal(notices.length, 1);
  assert.match(notices[0] ?? "", /^The sandbox worked on an earlier run but not now: bwrap /);
  // The failure is kept: the next run probes before its first request.
  const fourth = await sandboxForRun(options, dir.path, (m) => notices.push(m));
  assert.ok(fourth.resolution.ok && !fourth.resolution.sandbox);
  assert.equal(await bwrap.starts(), 4);
});
