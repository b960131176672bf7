import { basename, dirname } from "../../events/posix_path.ts";
import { frontmatterHint, frontmatterToolList, readFrontmatter } from "../files/frontmatter.ts";

/** A skill: a SKILL.md's frontmatter and its instructions. */
export interface Skill {
  /** What the model and `/name` call it (`name` in the frontmatter, else its directory's). */
  name: string;
  /** The catalog line: what it does. */
  description: string;
  /** When to use it, added to the catalog line. */
  whenToUse?: string;
  /** Tools the skill expects to use (`allowed-tools`), as written. */
  allowedTools: string[];
  /** False when `disable-model-invocation: true`: only a person invokes it, by `/name`. */
  modelInvocable: boolean;
  /** What `/name` takes, shown when it is offered (`argument-hint`). */
  argumentHint?: string;
  /** The instructions: the text after the frontmatter. */
  body: string;
  /** The SKILL.md's absolute path, and its directory (files beside it). */
  path: string;
  directory: string;
}

/** A SKILL.md parsed, or why it cannot be used. */
export type ParsedSkill = { ok: true; skill: Skill } | { ok: false; message: string };

/** Longest name a skill may have (as Claude Code). */
const MAX_NAME = 64;
/** Names `/name` can invoke: letters, digits, `-`, `_`, `.`, `:`; no spaces or slashes. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._:-]*$/u;

/** Whether `name` is one `/name` can invoke. Pure. */
function invocable(name: string): boolean {
  return NAME.test(name) && name.length <= MAX_NAME;
}

/**
 * Parse the SKILL.md at `path` (absolute) whose text is `text`: YAML frontmatter between `---`
 * lines with `description` (required), `name` (defaults to the directory's name, which is used
 * too when `name` is a title `/name` cannot invoke, as Claude Code does), `when_to_use`,
 * `allowed-tools` (a list or a comma- or space-separated string), `disable-model-invocation` and
 * `argument-hint`; other keys are ignored. Pure; never throws: a file that cannot be used comes
 * back with a message naming its path and what is wrong.
 */
export function parseSkill(path: string, text: string): ParsedSkill {
  const fail = (why: string): ParsedSkill => ({
    ok: false,
    message: `Skipped the skill at "${path}": ${why}`,
  });
  const read = readFrontmatter(text);
  if (!read.ok) return fail(read.why);
  if (!read.found) {
    return fail("it has no frontmatter (a --- line, YAML with a description, a --- line)");
  }
  const { fields } = read;
  const directory = dirname(path);
  const folder = basename(directory);
  const written = fields["name"] ?? folder;
  // A title ("My Skill") is no name /name can invoke: Claude Code loads the skill by its folder's.
  const name = typeof written === "string" && !NAME.test(written) && invocable(folder)
    ? folder
    : written;
  if (typeof name !== "string" || !invocable(name)) {
    return fail(
      `its name ${JSON.stringify(name)} is not a name /name can invoke (letters, digits, ` +
        `"-", "_", ".", ":"; at most ${MAX_NAME} characters)`,
    );
  }
  const description = fields["description"];
  if (typeof description !== "string" || description.trim() === "") {
    return fail(
      description === undefined
        ? "its frontmatter has no description (the line the catalog shows)"
        : "its description is not a non-empty text",
    );
  }
  const whenToUse = fields["when_to_use"];
  if (whenToUse !== undefined && typeof whenToUse !== "string") {
    return fail("its when_to_use is not a text");
  }
  const allowedTools = frontmatterToolList(fields["allowed-tools"]);
  if (allowedTools === undefined) {
    return fail("its allowed-tools is neither a list of tool names nor a text");
  }
  const disabled = fields["disable-model-invocation"] ?? false;
  if (typeof disabled !== "boolean") {
    return fail("its disable-model-invocation is not true or false");
  }
  const argumentHint = frontmatterHint(fields["argument-hint"]);
  if (argumentHint === null) return fail("its argument-hint is not a text");
  const body = read.body.replace(/^(?:[ \t]*\r?\n)+/, "");
  return {
    ok: true,
    skill: {
      name,
      description: description.trim(),
      ...(whenToUse?.trim() ? { whenToUse: whenToUse.trim() } : {}),
      allowedTools,
      modelInvocable: !disabled,
      ...(argumentHint === undefined ? {} : { argumentHint }),
      body,
      path,
      directory,
    },
  };
}
