/**
 * An agent placed in a worktree (`rein -w NAME -p`) commits there with the bwrap sandbox on, while
 * what lets a command run code or redirect git stays read-only, as for the main checkout: real
 * bwrap, real bash and real git against the fake model. The first call adds and commits (status,
 * log and diff work too); the next tries to plant a hook in the common git dir, to set
 * `core.hooksPath` (`git config`, and through the common dir's `config` by its path), to point the
 * worktree elsewhere (its `.git` file, its git dir's `gitdir` and `commondir`), to add a
 * `config.worktree`, to move another worktree's HEAD and to write in the main checkout: none of it
 * reaches the host. Skipped where bwrap cannot run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { resolveSandbox } from "../core/sandbox/resolve_sandbox.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "../core/sandbox/sandbox_settings.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { git, gitRepo } from "./_worktree_repo.ts";

const usable = await resolveSandbox({
  settings: DEFAULT_SANDBOX_SETTINGS,
  workspace: Deno.cwd(),
  env: {},
  bwrap: "bwrap",
});
const ignore = !(usable.ok && usable.sandbox);
if (ignore) console.warn("Skipping the worktree commit sandbox test: bwrap cannot run here");

const KEY = "sk-ant-worktree-commit-0123456789";
const GIT = "git -c user.name=t -c user.email=t@t";
const COMMIT = `printf 'work\\n' > work.txt && ${GIT} add -A && ${GIT} commit -q -m x && ` +
  `${GIT} status --short && ${GIT} log --oneline -1 && ${GIT} diff HEAD~1 --stat && echo COMMITTED`;
/** Each attack on its own line, its outcome printed; none may change the host. */
const ATTACKS = [
  `common=$(git rev-parse --path-format=absolute --git-common-dir)`,
  `own=$(git rev-parse --path-format=absolute --git-dir)`,
  `printf '#!/bin/sh\\ntouch "$PWD/pwned"\\n' > "$common/hooks/pre-commit"; chmod +x "$common/hooks/pre-commit"`,
  `git config core.hooksPath /tmp/evil`,
  `printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> "$common/config"`,
  `printf '[core]\\n\\thooksPath = /tmp/evil\\n' > "$own/config.worktree"`,
  `echo /tmp/elsewhere/.git > "$own/gitdir"`,
  `echo /tmp/elsewhere > "$own/commondir"`,
  `echo 'gitdir: /tmp/elsewhere' > .git`,
  `echo 0000000000000000000000000000000000000000 > "$common/worktrees/other/HEAD"`,
  `echo evil > ../../../evil.txt`,
  `echo ATTACKED`,
].join("\n");

Deno.test({
  name:
    "an agent placed in a worktree commits there under bwrap; hooks, config and git's pointers stay as they were",
  ignore,
  fn: async () => {
    await using ws = await tempWorkspace();
    await gitRepo(ws.path);
    await git(ws.path, "worktree", "add", "--quiet", "-b", "other", ".claude/worktrees/other");
    const common = join(ws.path, ".git");
    const before = {
      config: await Deno.readTextFile(join(common, "config")),
      gitdir: await Deno.readTextFile(join(common, "worktrees/other/gitdir")),
      otherHead: await Deno.readTextFile(join(common, "worktrees/other/HEAD")),
    };
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const calls = [
          toolUse("c1", "bash", { command: COMMIT }),
          toolUse("a1", "bash", { command: ATTACKS }),
        ];
        const call = calls[toolResultCount(request.body)];
        return message(call === undefined ? "done" : [call]);
      },
    });
    const run = await runCli(
      [
        "-p",
        "work",
        "-w",
        "feat",
        "--permission-mode",
        "bypassPermissions",
        "--workspace",
        ws.path,
      ],
      { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
    );
    assert.equal(run.code, 0, run.stderr);
    const events = await readLogLines(
      join(ws.path, ".rein", "events.jsonl"),
    ) as unknown as Envelope[];
    const done = new Map(
      events.flatMap((e) => e.type === "tool.completed" ? [[e.data.callId, e.data.content]] : []),
    );
    const committed = String(done.get("c1"));
    assert.match(committed, /COMMITTED/, committed);
    assert.match(committed, /work\.txt \| 1 \+/, committed);
    const tree = join(ws.path, ".claude/worktrees/feat");
    // The commit is on the worktree's branch, on the host.
    assert.equal((await git(ws.path, "log", "-1", "--format=%s", "worktree-feat")).trim(), "x");
    assert.equal((await git(tree, "status", "--short")).trim(), "");

    const attacked = String(done.get("a1"));
    assert.match(attacked, /ATTACKED/, attacked);
    assert.match(attacked, /Read-only file system|Device or resource busy/, attacked);
    await assert.rejects(Deno.stat(join(common, "hooks/pre-commit")), attacked);
    assert.equal(await Deno.readTextFile(join(common, "config")), before.config);
    const own = join(common, "worktrees/feat");
    assert.equal((await Deno.readTextFile(join(own, "gitdir"))).trim(), join(tree, ".git"));
    assert.equal((await Deno.readTextFile(join(own, "commondir"))).trim(), "../..");
    await assert.rejects(Deno.stat(join(own, "config.worktree")), attacked);
    assert.match(await Deno.readTextFile(join(tree, ".git")), /worktrees\/feat/);
    assert.equal(await Deno.readTextFile(join(common, "worktrees/other/gitdir")), before.gitdir);
    assert.equal(await Deno.readTextFile(join(common, "worktrees/other/HEAD")), before.otherHead);
    await assert.rejects(Deno.stat(join(ws.path, "evil.txt")), attacked);
    // git on the host still works in the worktree, running no planted code.
    await git(tree, "commit", "--quiet", "--allow-empty", "-m", "host");
    await assert.rejects(Deno.stat(join(tree, "pwned")));
  },
});
