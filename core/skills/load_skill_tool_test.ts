import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { evolve, foldEvents, initialState } from "../state/state.ts";
import { callContext } from "../../testing/tool_helpers.ts";
import { inputJsonSchema, toolDefinition } from "../tools/schema.ts";
import { LOAD_SKILL_INPUT_SCHEMA, loadSkillTool } from "./load_skill_tool.ts";

const event = eventFactory("s1");
const state = foldEvents([
  event("session.started", {
    ...startedData({ workspace: "/work/app" }),
    files: [
      {
        source: "skills",
        path: "/work/app/.claude/skills/pdf/SKILL.md",
        text: "---\ndescription: PDFs\n---\nUse forms.py beside this file on $ARGUMENTS.\n",
      },
      {
        source: "skills",
        path: "/home/me/.claude/skills/deploy/SKILL.md",
        text: "---\ndescription: Deploys\ndisable-model-invocation: true\n---\nDeploy.\n",
      },
      {
        source: "skills",
        path: "/opt/rein/skills/write-a-hook/SKILL.md",
        text: "---\ndescription: Hooks\n---\nWrite a hook.\n",
      },
    ],
  }),
]);

function run(input: { skill: string; args?: string }) {
  return loadSkillTool.run(input, {
    signal: new AbortController().signal,
    session: "s1",
    agent: "lead",
    callId: "toolu_1",
    cwd: "/work/app",
    view: () => state,
  });
}

Deno.test("the JSON Schema load_skill ships is the one its zod schema gives", async () => {
  const schema =
    await (loadSkillTool.schema as () => Promise<Parameters<typeof inputJsonSchema>[0]>)();
  assert.deepEqual(LOAD_SKILL_INPUT_SCHEMA, inputJsonSchema(schema));
  assert.deepEqual(toolDefinition(loadSkillTool).input_schema, LOAD_SKILL_INPUT_SCHEMA);
});

Deno.test("load_skill returns the recorded body with its arguments, and where the skill's files are", async () => {
  const result = await run({ skill: "pdf", args: "a.pdf" });
  assert.equal(
    result.content,
    'Skill "pdf" (from /work/app/.claude/skills/pdf/SKILL.md). Its directory is ' +
      ".claude/skills/pdf; read files beside it with read_file.\n\n" +
      "Use forms.py beside this file on a.pdf.",
  );
  assert.equal(result.isError, undefined);
  assert.equal(result.events, undefined);
});

Deno.test("a skill outside the workspace is loaded, and the model is told read_file cannot reach its folder", async () => {
  const result = await run({ skill: "/write-a-hook" });
  assert.match(
    result.content,
    /^Skill "write-a-hook" \(from \/opt\/rein\/skills\/write-a-hook\/SKILL\.md\)\. Its directory is \/opt\/rein\/skills\/write-a-hook \(outside the workspace/,
  );
  assert.match(result.content, /\n\nWrite a hook\.$/);
});

Deno.test("an unknown skill, or one only the user may invoke, is an error naming the loadable skills", async () => {
  assert.deepEqual(await run({ skill: "pdff" }), {
    content: 'Unknown skill "pdff". Available skills: pdf, write-a-hook',
    isError: true,
  });
  assert.deepEqual(await run({ skill: "deploy" }), {
    content: 'The skill "deploy" is only run when the user types /deploy; skills you may load: ' +
      "pdf, write-a-hook",
    isError: true,
  });
});

Deno.test("load_skill with file reads a file beside the skill, nothing outside its directory and no named pipe", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-skill-file-" }));
  try {
    const directory = `${root}/skills/pdf`;
    await Deno.mkdir(`${directory}/scripts`, { recursive: true });
    await Deno.writeTextFile(`${directory}/scripts/fill.py`, "print('filled')\n");
    await Deno.writeTextFile(`${root}/secret.txt`, "secret\n");
    await Deno.symlink(`${root}/secret.txt`, `${directory}/leak.txt`);
    const text = "---\nname: pdf\ndescription: Fills PDF forms\n---\nRun scripts/fill.py.\n";
    const state = initialState();
    evolve(state, {
      v: 2,
      seq: 1,
      ts: "",
      session: "s",
      agent: "lead",
      type: "session.started",
      data: {
        model: "m",
        workspace: `${root}/ws`,
        startedAt: "2026-11-22T10:00:00.000Z",
        maxTokens: 1,
        platform: "linux",
        files: [{ source: "skills", path: `${directory}/SKILL.md`, text }],
      },
    });
    const context = { ...callContext(), session: "s", view: () => state };
    const read = await loadSkillTool.run({ skill: "pdf", file: "scripts/fill.py" }, context);
    assert.equal(read.isError, undefined);
    assert.match(read.content, /print\('filled'\)/);
    const up = await loadSkillTool.run({ skill: "pdf", file: "../../secret.txt" }, context);
    assert.equal(up.isError, true);
    const link = await loadSkillTool.run({ skill: "pdf", file: "leak.txt" }, context);
    assert.equal(link.isError, true);
    assert.match(link.content, /leads outside the skill's directory/);
    if (Deno.build.os !== "windows") {
      const made = await new Deno.Command("mkfifo", { args: [`${directory}/pipe.txt`] }).output();
      assert.equal(made.code, 0);
      const pipe = await loadSkillTool.run({ skill: "pdf", file: "pipe.txt" }, context);
      assert.deepEqual(pipe, {
        content: 'Cannot read "pipe.txt" of skill "pdf": it is a named pipe, not a regular file',
        isError: true,
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
