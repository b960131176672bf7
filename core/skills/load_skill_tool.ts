import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { z } from "zod";
import { readConfined } from "../files/read_confined.ts";
import { realRoots } from "../files/start_bounds.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolResult, Zod } from "../tools/tool.ts";
import { expandSkill } from "./expand_skill.ts";
import type { Skill } from "./skill.ts";
import { skillsOf } from "./skill_set.ts";

/** The input's zod schema, built on the tool's first call (zod is not loaded at start-up). */
function inputSchema(z: Zod) {
  return z.strictObject({
    skill: z.string().min(1).describe('The skill\'s name, as the Skills list gives it, e.g. "pdf"'),
    args: z.string().optional().describe("Arguments for the skill, if it takes any"),
    file: z.string().min(1).optional().describe(
      "A file beside the skill's SKILL.md to read instead, relative to the skill's directory",
    ),
  });
}

/** Input of load_skill (Claude Code's Skill: `skill`, optional `args`). */
export type LoadSkillInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; `load_skill_tool_test.ts` checks it equals the zod schema's. */
export const LOAD_SKILL_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    skill: {
      type: "string",
      description: 'The skill\'s name, as the Skills list gives it, e.g. "pdf"',
      minLength: 1,
    },
    args: { type: "string", description: "Arguments for the skill, if it takes any" },
    file: {
      type: "string",
      description: "A file beside the skill's SKILL.md to read instead, relative to the skill's " +
        "directory",
      minLength: 1,
    },
  },
  required: ["skill"],
  additionalProperties: false,
};

const description =
  `Loads a skill: instructions for a particular kind of task, listed under "Skills" in the system prompt.

- Call it with the skill's name when the task matches the skill's description, before you start the task, and then follow the instructions it returns.
- The result names the skill's directory; files the instructions mention are relative to it. Read one with load_skill and \`file\` (the skill's directory may be outside the workspace, where read_file cannot go).
- Only skills in the list can be loaded.`;

/**
 * The load_skill tool (Claude Code's Skill): the body of one of the session's skills, read from
 * the recorded SKILL.md, with `$ARGUMENTS` expanded and its directory named; with `file`, a file
 * beside it, read from disk (inside the skill's directory only). An effect: replay serves what it
 * returned. An unknown name, or a skill only a person may invoke, is an error listing the skills
 * the model may load.
 */
export const loadSkillTool: Tool<LoadSkillInput> = {
  name: "load_skill",
  description,
  schema: lazySchema(inputSchema),
  inputSchema: LOAD_SKILL_INPUT_SCHEMA,
  kind: "effect",
  readOnly: true,
  claudeNames: ["Skill"],
  specifierFields: ["skill", "name"],
  permission: "read-only",
  guidance: "When a task matches one of the Skills listed below, load it with load_skill first " +
    "and follow its instructions.",
  summarize: (input) => input.skill,
  async run(input, context) {
    const view = context.view();
    const skills = skillsOf(view, context.session);
    const workspace = view.sessions.byId[context.session]?.workspace ?? context.cwd;
    const loaded = loadSkill(skills, input, workspace);
    if (loaded.isError || input.file === undefined) return loaded;
    const skill = skills.find((s) => s.name === input.skill.trim().replace(/^\//, ""));
    return skill === undefined ? loaded : await readBeside(skill, input.file);
  },
};

/** What load_skill answers for `input` given the session's `skills`. Pure. */
export function loadSkill(
  skills: readonly Skill[],
  input: LoadSkillInput,
  workspace: string,
): ToolResult {
  const name = input.skill.trim().replace(/^\//, "");
  const skill = skills.find((s) => s.name === name);
  const loadable = skills.filter((s) => s.modelInvocable).map((s) => s.name);
  const available = loadable.length > 0 ? loadable.join(", ") : "none";
  if (!skill) {
    return { content: `Unknown skill "${name}". Available skills: ${available}`, isError: true };
  }
  if (!skill.modelInvocable) {
    return {
      content: `The skill "${name}" is only run when the user types /${name}; ` +
        `skills you may load: ${available}`,
      isError: true,
    };
  }
  const inside = relative(workspace, skill.directory);
  const where = inside.startsWith("..") || inside.startsWith("/")
    ? `Its directory is ${skill.directory} (outside the workspace: read files beside it with ` +
      `load_skill and \`file\`).`
    : `Its directory is ${inside}; read files beside it with read_file.`;
  return {
    content: `Skill "${skill.name}" (from ${skill.path}). ${where}\n\n` +
      expandSkill(skill, input.args ?? ""),
  };
}

/** Characters of a file beside a skill that load_skill shows. */
const MAX_BESIDE_CHARS = 100_000;

/**
 * The text of `file` in `skill`'s directory; refused when it leads outside it (its real path),
 * when it is not a regular file (a named pipe never blocks) and, after
 * {@link MAX_BESIDE_CHARS} characters, cut (no more than that many characters' worth of bytes is
 * read). Never throws.
 */
async function readBeside(skill: Skill, file: string): Promise<ToolResult> {
  const path = resolve(skill.directory, file);
  const inside = relative(skill.directory, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
    return { content: `"${file}" is not inside the skill's directory`, isError: true };
  }
  const read = await readConfined(path, {
    roots: await realRoots(skill.directory),
    credentials: [],
    // A character is at most 4 bytes: these hold more than MAX_BESIDE_CHARS of any longer file.
    maxBytes: 4 * MAX_BESIDE_CHARS,
  });
  if (!read.ok) {
    if (read.problem === "outside") {
      return { content: `"${file}" leads outside the skill's directory`, isError: true };
    }
    const why = read.problem === "missing" ? "no such file" : read.why;
    return { content: `Cannot read "${file}" of skill "${skill.name}": ${why}`, isError: true };
  }
  const text = new TextDecoder().decode(read.bytes);
  const shown = text.length > MAX_BESIDE_CHARS
    ? `${text.slice(0, MAX_BESIDE_CHARS)}\n[… cut at 100,000 characters]`
    : text;
  return { content: `${file} (of skill "${skill.name}"):\n\n${shown}` };
}
