/**
 * Claude Code's `statusLine`: a command whose first line of output is the REPL's status line,
 * fed Claude Code's JSON on stdin, run above each prompt.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { CLI, tempWorkspace } from "./_cli.ts";
import { shellQuote, Terminal } from "./_tmux.ts";

const KEY = "sk-ant-status-line-test";
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

Deno.test("the person's statusLine command shows above each prompt, fed Claude Code's JSON", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  const seen = join(ws.path, "status-input.jsonl");
  const script = join(home, ".claude", "statusline.sh");
  await Deno.writeTextFile(
    script,
    [
      "#!/bin/bash",
      "input=$(cat)",
      `printf '%s\\n' "$input" >> ${shellQuote(seen)}`,
      'echo "STATUS $(echo "$input" | jq -r .model.id) in $(basename "$(echo "$input" | jq -r .workspace.current_dir)")"',
      "echo 'a second line is not shown'",
    ].join("\n"),
  );
  await Deno.chmod(script, 0o755);
  await Deno.writeTextFile(
    join(home, ".claude", "settings.json"),
    JSON.stringify({ statusLine: { type: "command", command: script, padding: 1 } }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("Hello there") });
  const command = [
    `HOME=${shellQuote(home)} DENO_DIR=${shellQuote(DENO_DIR)}`,
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent --model claude-test-model`,
    `--workspace ${shellQuote(project)}`,
  ].join(" ");
  // The marker file says the agent has exited, so nothing writes in the workspace as it is removed.
  const exited = join(ws.path, "exited");
  await using terminal = await Terminal.start(
    `sh -c ${shellQuote(`${command}; touch ${shellQuote(exited)}`)}`,
  );
  const atPrompt = (s: { cursorLine: string; cursorX: number }) =>
    s.cursorLine === ">" && s.cursorX === 2;
  const first = await terminal.waitFor(
    "the status line above the first prompt",
    (s) => atPrompt(s) && s.text.includes(" STATUS claude-test-model in project"),
    20_000,
  );
  assert.ok(!first.text.includes("a second line"), first.text);
  await terminal.type("hi");
  await terminal.press("Enter");
  await terminal.waitFor(
    "the answer, then the status line again",
    (s) =>
      atPrompt(s) && s.text.includes("Hello there") &&
      s.text.split("STATUS claude-test-model").length - 1 === 2,
  );
  await terminal.press("C-d");
  for (let waited = 0; !(await Deno.stat(exited).then(() => true, () => false)); waited += 50) {
    if (waited > 20_000) throw new Error("The agent did not exit within 20 s of Ctrl-D");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const inputs = (await Deno.readTextFile(seen)).trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(inputs.length, 2);
  const [, after] = inputs;
  assert.equal(after.hook_event_name, "Status");
  assert.equal(after.model.id, "claude-test-model");
  assert.equal(after.cwd, project);
  assert.equal(after.workspace.project_dir, project);
  assert.equal(after.version, "0.1.0");
  assert.match(after.session_id, /^[0-9a-f-]{36}$/);
  assert.equal(
    after.transcript_path,
    join(project, ".rein", "transcripts", `${after.session_id}.jsonl`),
  );
  assert.equal(typeof after.cost.total_cost_usd, "number");
});
