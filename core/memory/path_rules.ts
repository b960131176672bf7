import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { readFrontmatter } from "../files/frontmatter.ts";

/** The `source` of a `.claude/rules/` file with `paths:`: it joins when a matching file is read. */
export const PATH_RULE_SOURCE = "memory.rule";

/** A rule of `.claude/rules/` that applies to some files only. */
export interface PathRule {
  /** The rule file's absolute path. */
  path: string;
  /** Its `paths:` globs, as written (relative to the project root). */
  globs: string[];
  /** Its instructions: the text after the frontmatter. */
  body: string;
}

/**
 * The `paths:` globs of a rule file's text (a list, or one text: comma-separated, braces kept),
 * or undefined when it has none (the rule applies everywhere, loaded at start). Pure.
 */
export function ruleGlobs(text: string): string[] | undefined {
  const read = readFrontmatter(text);
  if (!read.ok || !read.found) return undefined;
  const paths = read.fields["paths"];
  const globs = typeof paths === "string"
    ? paths.split(/,(?![^{]*\})/).map((glob) => glob.trim()).filter(Boolean)
    : Array.isArray(paths)
    ? paths.filter((glob): glob is string => typeof glob === "string" && glob.trim() !== "")
      .map((glob) => glob.trim())
    : [];
  return globs.length === 0 ? undefined : globs;
}

/** The path rules among a session's recorded files, in recorded order. Pure. */
export function pathRulesOf(files: readonly RecordedFile[]): PathRule[] {
  const rules: PathRule[] = [];
  for (const file of files) {
    if (file.source !== PATH_RULE_SOURCE) continue;
    const globs = ruleGlobs(file.text);
    const read = readFrontmatter(file.text);
    if (globs === undefined || !read.ok) continue;
    rules.push({ path: file.path, globs, body: read.body.trim() });
  }
  return rules;
}

/**
 * Whether `file` (absolute, or relative to `root`) is one `globs` name, relative to `root` (the
 * project the rule is of: the workspace). `isMatch` compiles a glob (picomatch's). Pure.
 */
export function ruleMatches(
  globs: readonly string[],
  root: string,
  file: string,
  isMatch: (glob: string, path: string) => boolean,
): boolean {
  const absolute = isAbsolute(file) ? file : resolve(root, file);
  const inside = relative(root, absolute);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return false;
  return globs.some((glob) => isMatch(glob.replace(/^\.\//, ""), inside));
}

/** The reminder a path rule joins the context with, when `file` is read. Pure. */
export function ruleReminderText(rule: PathRule, shownRule: string, shownFile: string): string {
  return `Reading ${shownFile} brought in the rule ${shownRule} (it applies to ` +
    `${rule.globs.join(", ")}); follow it:\n\n${rule.body}`;
}
