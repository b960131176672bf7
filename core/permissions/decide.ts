import { isAbsolute, resolve } from "../../events/posix_path.ts";
import { lexCommand, type ShellToken, tokensText, unwrapTokens } from "./_shell_lex.ts";
import { bashRuleMatches, spacedLegacyPrefix } from "./bash_match.ts";
import { type PathContext, pathRuleMatches } from "./path_match.ts";
import { isReadOnlyCommand } from "./read_only_command.ts";
import type { Rule } from "./rule.ts";
import { knownToolNames, type ToolNames } from "../tools/tool_names.ts";

/** A tool call as the model made it, under rein's tool name. */
export interface PermissionCall {
  tool: string;
  input: Record<string, unknown>;
}

/** Parsed rules, each list in the order the settings gave them. */
export interface PermissionRules<R extends Rule = Rule> {
  allow: readonly R[];
  ask: readonly R[];
  deny: readonly R[];
  /**
   * Whether an allow rule without a wildcard that names a whole command line (`Bash(cd web &&
   * npm test)`, the rule rein suggests for such a line) allows exactly that line. Otherwise each
   * simple command of a line needs a rule of its own, as in sessions recorded before this.
   */
  wholeLines?: boolean;
  /**
   * Whether bash rules read as Claude Code's (sessions recorded with the `claude_bash_rules`
   * feature): its larger read-only set (`rg`, `find` without `-exec`, `sort` without `-o`, …), a
   * bare `Bash` ask rule that lets read-only commands through, and an allow rule with a space
   * before a legacy `:*` that allows nothing. Otherwise the rules of sessions recorded before.
   */
  claudeBash?: boolean;
}

/** What the rules say about a call, and the rule that said it. */
export interface PermissionDecision<R extends Rule = Rule> {
  decision: "allow" | "ask" | "deny";
  /**
   * The rule that decided. Absent when nothing matched ("ask": the caller applies the mode) and
   * when every part of a bash command was in the built-in read-only set ("allow").
   */
  rule?: R;
}

type Verdict = PermissionDecision["decision"];

/**
 * Decides a tool call against permission rules: deny first, then ask, then allow; within a list
 * the first matching rule wins; no match gives "ask" for the caller's mode to settle. Pure.
 *
 * Which calls a rule covers comes from the tools' facts (`names`, rein's tools by default):
 * `Read` rules also cover grep's and glob's paths; `Edit` rules cover every tool that writes
 * files; a `Read` deny also denies writes there. A bash command is cut into simple commands with
 * wrappers looked through: a deny or ask rule matching any part decides, while allowing needs
 * every part allowed by a rule or in the read-only set, and a complex command (`$(…)`, backticks,
 * subshells) is allowed only by a bare `Bash` rule. A bare `Bash` ask rule does not ask about a
 * command whose every part is read-only, and an allow rule with a space before a legacy `:*`
 * (`Bash(npm test :*)`) allows nothing, both as in Claude Code. An assignment to a variable that changes what
 * runs (`PATH=…`, `LD_PRELOAD=…`) keeps a part from matching an allow rule through it.
 */
export function decide<R extends Rule>(
  call: PermissionCall,
  rules: PermissionRules<R>,
  context: PathContext,
  names: ToolNames = knownToolNames(),
): PermissionDecision<R> {
  if (names.permission(call.tool) === "execute") {
    return decideBash(commandOf(call, names), rules, context, names);
  }
  const lists: [Verdict, readonly R[]][] = [
    ["deny", rules.deny],
    ["ask", rules.ask],
    ["allow", rules.allow],
  ];
  // The call's file, placed once: every path rule is checked against it.
  let file: string | undefined | null = null;
  const fileOf = () => file === null ? (file = callPath(call, context, names)) : file;
  for (const [decision, list] of lists) {
    const rule = list.find((candidate) =>
      ruleMatches(candidate, call, decision, context, fileOf, names)
    );
    if (rule !== undefined) return { decision, rule };
  }
  return { decision: "ask" };
}

function ruleMatches(
  rule: Rule,
  call: PermissionCall,
  list: Verdict,
  context: PathContext,
  fileOf: () => string | undefined,
  names: ToolNames,
): boolean {
  if (call.tool.startsWith("mcp__")) {
    const serverWide = rule.tool.split("__").length === 2;
    return rule.tool === call.tool || (serverWide && call.tool.startsWith(`${rule.tool}__`));
  }
  if (!names.covers(rule.tool, call.tool, list)) return false;
  if (rule.specifier === undefined) return true;
  if (names.hasPath(rule.tool)) {
    const file = fileOf();
    return file !== undefined && pathRuleMatches(rule.specifier, file, context);
  }
  const name = names.specifierOf(call.tool, call.input);
  return name !== undefined && bashRuleMatches(rule.specifier, name);
}

/**
 * The absolute path a file tool works on (its path field, or Claude Code's `file_path`); a
 * search (grep, glob: a reading tool whose path may be left out) defaults to the working
 * directory.
 */
function callPath(
  call: PermissionCall,
  context: PathContext,
  names: ToolNames,
): string | undefined {
  const fields = names.facts(call.tool)?.pathFields ?? ["path"];
  const given = [...fields, "file_path"].map((field) => call.input[field]).find((value) =>
    value !== undefined
  );
  if (typeof given !== "string" || given === "") {
    return SEARCHES.has(call.tool) ? context.cwd : undefined;
  }
  return isAbsolute(given) ? resolve(given) : resolve(context.cwd, given);
}

/** Tools that search the working directory when no path is given. */
const SEARCHES: ReadonlySet<string> = new Set(["grep", "glob"]);

/** The command a shell tool's call runs (its command field). */
function commandOf(call: PermissionCall, names: ToolNames): string {
  const command = call.input[names.facts(call.tool)?.commandField ?? "command"];
  return typeof command === "string" ? command : "";
}

/** The Read deny rule that one of `operands` (paths as a command names them) falls under. */
function readDenial<R extends Rule>(
  operands: readonly string[],
  rules: PermissionRules<R>,
  context: PathContext,
  names: ToolNames,
): R | undefined {
  const denials = rules.deny.filter((rule) =>
    isReadRule(rule, names) && rule.specifier !== undefined
  );
  if (denials.length === 0) return undefined;
  for (const operand of operands) {
    const expanded = operand === "~" || operand.startsWith("~/")
      ? `${context.home}${operand.slice(1)}`
      : operand;
    const file = isAbsolute(expanded) ? resolve(expanded) : resolve(context.cwd, expanded);
    const rule = denials.find((candidate) =>
      pathRuleMatches(candidate.specifier as string, file, context)
    );
    if (rule !== undefined) return rule;
  }
  return undefined;
}

/** Variables whose value changes which program runs or what it loads. */
const UNSAFE_ASSIGNMENT =
  /^(PATH|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|LD_\w*|DYLD_\w*|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|RUBYOPT|RUBYLIB|GIT_\w*)$/;

/** A `*` that is not escaped: a rule with one matches more than one command line. */
const WILDCARD = /(^|[^\\])\*/;

/** A rule for the tool whose Claude Code name is `Read` (read_file), which reads any file. */
function isReadRule(rule: Rule, names: ToolNames): boolean {
  return names.claudeName(rule.tool) === "Read";
}

/** A rule for a tool that runs shell commands (bash). */
function isShellRule(rule: Rule, names: ToolNames): boolean {
  return names.permission(rule.tool) === "execute";
}

function decideBash<R extends Rule>(
  command: string,
  rules: PermissionRules<R>,
  context: PathContext,
  names: ToolNames,
): PermissionDecision<R> {
  const lexed = lexCommand(command);
  const parts = lexed.parts.map((tokens) => {
    const unwrapped = unwrapTokens(tokens);
    return {
      text: tokensText(tokens),
      stripped: tokensText(unwrapped.tokens),
      // As bash will run it: quotes and escapes removed, the program without its directory
      // (`'rm'`, `\rm` and `/bin/rm` are all rm), for deny and ask rules.
      unquoted: unquotedText(unwrapped.tokens),
      unsafe: unwrapped.assignments.some((name) => UNSAFE_ASSIGNMENT.test(name)),
      // Words after the program that are not options: the files a read-only command reads.
      operands: unwrapped.tokens.slice(1).flatMap((token) =>
        token.kind === "word" && !token.value.startsWith("-") ? [token.value] : []
      ),
    };
  });
  const everyForm = [
    command.trim(),
    ...parts.flatMap((part) => [part.text, part.stripped, part.unquoted]),
  ];
  const matchesAny = (rule: Rule) =>
    isShellRule(rule, names) &&
    (rule.specifier === undefined ||
      everyForm.some((form) => bashRuleMatches(rule.specifier as string, form)));

  const denied = rules.deny.find(matchesAny);
  if (denied !== undefined) return { decision: "deny", rule: denied };
  const claude = rules.claudeBash === true;
  const asking = rules.ask.filter(matchesAny);
  const asked = asking[0];
  if (asked !== undefined && !claude) return { decision: "ask", rule: asked };
  if (asked !== undefined) {
    if (asking.some((rule) => rule.specifier !== undefined)) {
      return { decision: "ask", rule: asked };
    }
    // A bare `Bash` ask rule lets read-only commands through, as in Claude Code (a Read deny rule
    // still stops them).
    const unruled = decideBash(
      command,
      { allow: [], ask: [], deny: rules.deny, claudeBash: true },
      context,
      names,
    );
    if (unruled.decision === "deny") return unruled;
    if (unruled.decision === "ask") return { decision: "ask", rule: asked };
  }

  // `Bash(npm test :*)` allows nothing, as in Claude Code (see spacedLegacyPrefix).
  const bashRules = rules.allow.filter((rule) =>
    isShellRule(rule, names) &&
    (rule.specifier === undefined || !claude || !spacedLegacyPrefix(rule.specifier))
  );
  const everything = bashRules.find((rule) => rule.specifier === undefined);
  if (everything !== undefined) return { decision: "allow", rule: everything };
  if (rules.wholeLines) {
    const line = command.trim();
    const exact = bashRules.find((rule) =>
      !WILDCARD.test(rule.specifier as string) && bashRuleMatches(rule.specifier as string, line)
    );
    if (exact !== undefined) return { decision: "allow", rule: exact };
  }
  if (lexed.complex || parts.length === 0) return { decision: "ask" };

  let decidingRule: R | undefined;
  for (const part of parts) {
    const rule = bashRules.find((candidate) => {
      const pattern = candidate.specifier as string;
      return bashRuleMatches(pattern, part.text) ||
        (!part.unsafe && bashRuleMatches(pattern, part.stripped));
    });
    if (rule === undefined) {
      // A read-only command may not read what a Read rule denies; an operand the shell expands
      // (`.en?`, `$HOME/…`) cannot be checked against those rules, so it asks.
      const expands = part.operands.some((operand) => /[*?[\]{}$`]/.test(operand)) &&
        rules.deny.some((rule) => isReadRule(rule, names));
      if (!part.unsafe && !expands && isReadOnlyCommand(part.text, claude)) {
        // A read-only command may not read what a Read rule denies (`cat ~/.ssh/id_rsa`).
        const denied = readDenial(part.operands, rules, context, names);
        if (denied !== undefined) return { decision: "deny", rule: denied };
        continue;
      }
      return { decision: "ask" };
    }
    decidingRule ??= rule;
  }
  return decidingRule === undefined
    ? { decision: "allow" }
    : { decision: "allow", rule: decidingRule };
}

/** The words as bash passes them (quotes and escapes removed), the program without its path. */
function unquotedText(tokens: readonly ShellToken[]): string {
  const words = tokens.flatMap((token) => token.kind === "word" ? [token.value] : []);
  if (words[0] !== undefined) words[0] = words[0].replace(/^.*\//, "");
  return words.join(" ");
}
