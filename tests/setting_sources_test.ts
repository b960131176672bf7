/**
 * `--setting-sources` (the Agent SDK's `settingSources`) chooses the files a session reads as
 * Claude Code does: `user` is ~/.claude's CLAUDE.md, rules, skills, commands and agents, `project`
 * the repository's CLAUDE.md and AGENTS.md and its .claude/ rules, skills, commands and agents,
 * `local` CLAUDE.local.md; none of them with an empty list. rein's own skills are read always.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { runCli } from "./_cli.ts";

/** A marker in each file, so a request shows which files the session read. */
const FILES: Record<string, string> = {
  "home/.claude/CLAUDE.md": "MARK-USER-CLAUDE",
  "home/.claude/rules/u.md": "MARK-USER-RULE",
  "home/.claude/skills/uskill/SKILL.md":
    "---\nname: uskill\ndescription: MARK-USER-SKILL\n---\nbody\n",
  "home/.claude/agents/uagent.md": "---\nname: uagent\ndescription: MARK-USER-AGENT\n---\nbody\n",
  "home/.claude/commands/ucmd.md": "---\ndescription: MARK-USER-COMMAND\n---\nbody\n",
  "home/repo/CLAUDE.md": "MARK-PROJECT-CLAUDE",
  "home/repo/AGENTS.md": "MARK-PROJECT-AGENTS",
  "home/repo/.claude/rules/p.md": "MARK-PROJECT-RULE",
  "home/repo/.claude/skills/pskill/SKILL.md":
    "---\nname: pskill\ndescription: MARK-PROJECT-SKILL\n---\nbody\n",
  "home/repo/.claude/agents/pagent.md":
    "---\nname: pagent\ndescription: MARK-PROJECT-AGENT\n---\nbody\n",
  "home/repo/.claude/commands/pcmd.md": "---\ndescription: MARK-PROJECT-COMMAND\n---\nbody\n",
  "home/repo/CLAUDE.local.md": "MARK-LOCAL-CLAUDE",
};
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
const MARKS = Object.values(FILES).map((text) => text.match(/MARK-[A-Z-]+/)![0]);

/** Which markers a run with `args` recorded in its session (its files) and sent the model. */
async function marksSeen(args: string[]): Promise<{ recorded: string[]; sent: string[] }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-sources-" }));
  try {
    for (const [path, text] of Object.entries(FILES)) {
      await Deno.mkdir(join(base, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(base, path), text);
    }
    const ws = join(base, "home", "repo");
    await Deno.mkdir(join(ws, ".git"));
    await using fake = await startFakeAnthropic({ script: () => message("ok") });
    const result = await runCli(
      ["-p", "hi", "--workspace", ws, "--output-format", "stream-json", "--verbose", ...args],
      {
        env: {
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: "sk-ant-test",
          HOME: join(base, "home"),
          DENO_DIR,
        },
      },
    );
    assert.equal(result.code, 0, result.stderr);
    const log = await Deno.readTextFile(join(ws, ".rein", "events.jsonl"));
    const init = JSON.parse(result.stdout.split("\n")[0]!);
    const sent = JSON.stringify(fake.requests.map((request) => request.body)) +
      JSON.stringify(init.slash_commands) + JSON.stringify(init.agents);
    return {
      recorded: MARKS.filter((mark) => log.includes(mark)),
      sent: MARKS.filter((mark) => sent.includes(mark.toLowerCase()) || sent.includes(mark)),
    };
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("--setting-sources chooses CLAUDE.md, rules, skills, commands and agents as Claude Code does", async () => {
  const all = await marksSeen([]);
  assert.deepEqual(all.recorded, MARKS, "every file without --setting-sources");

  const user = await marksSeen(["--setting-sources", "user"]);
  assert.deepEqual(user.recorded, MARKS.filter((mark) => mark.startsWith("MARK-USER")));

  const project = await marksSeen(["--setting-sources", "project,local"]);
  assert.deepEqual(
    project.recorded,
    MARKS.filter((mark) => mark.startsWith("MARK-PROJECT") || mark.startsWith("MARK-LOCAL")),
  );

  const none = await marksSeen(["--setting-sources", ""]);
  assert.deepEqual(none.recorded, []);
  assert.deepEqual(none.sent, []);
});
