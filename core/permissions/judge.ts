import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { PermissionSource } from "../../events/event_types.ts";
import { lexCommand, tokensText, unwrapTokens } from "./_shell_lex.ts";
import { knownToolNames, type ToolNames } from "../tools/tool_names.ts";
import { guardedFolder } from "../tools/workspace_path.ts";
import { decide, type PermissionCall, type PermissionDecision } from "./decide.ts";
import { destructiveCommand } from "./destructive.ts";
import type { PermissionPolicy, SourcedRule } from "./policy.ts";

/**
 * What the rules and the mode make of a call: settled, or a question for the person.
 * `protectedPath`: the call writes this file under the project's `.claude/` or `.git/` (its real
 * path), which only a person or `bypassPermissions` may allow; no rule saved from the answer
 * would skip the question next time.
 */
export type Judgement =
  | { decision: "allow" | "deny"; source: PermissionSource; reason: string; protectedPath?: string }
  | {
    decision: "ask";
    /** Why it asks, in words: the ask rule, or that no rule allows it. */
    asked: string;
    /** A rule that would allow calls like this one (`Bash(npm test *)`). */
    suggestion: string;
    protectedPath?: string;
  };

/** Where a file tool's path really leads, as the gate read it (`permission.path_resolved`). */
export interface ResolvedPath {
  realPath: string;
  /** Where each symbolic link on the way led, inside the workspace. */
  via?: readonly string[];
}

/** What PreToolUse hooks said about a call (a deny never reaches the rules: the hook blocks). */
export interface HookSay {
  decision: "allow" | "ask";
  reason: string;
  /** The hook command that decided, or several joined. */
  command: string;
}

const NO_RULES = { allow: [], ask: [], deny: [] };

/** Programs whose arguments say what runs: a `Bash(bash *)` rule would allow anything. */
const RUNS_ANYTHING: ReadonlySet<string> = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "fish",
  "env",
  "eval",
  "exec",
  "xargs",
  "find",
  "node",
  "deno",
  "bun",
  "python",
  "python3",
  "perl",
  "ruby",
  "php",
  "lua",
  "awk",
  "gawk",
  "sed",
  "ssh",
  "docker",
  "kubectl",
  "npx",
  "sudo",
  "su",
  "nohup",
  "timeout",
  "nice",
  "watch",
  "time",
  "command",
  "builtin",
  "source",
  ".",
]);

/**
 * Judges a call (design.md §10's "permission rules and mode"), pure: rein's list of destructive
 * commands denies whatever the mode; then deny rules, on the path as written and on its real
 * path (`resolved`); then a file write under the project's `.claude/` or `.git/` (as written,
 * really, or through any symbolic link on the way) asks a person whatever the rules and hooks
 * say (`bypassPermissions` allows it, `dontAsk`, `plan` and a headless run deny it); then plan
 * mode denies what is not read-only; then ask rules and a PreToolUse hook's ask (allowed in
 * `bypassPermissions`, denied in `dontAsk`); then a PreToolUse hook's allow and allow rules (the
 * session's "don't ask again" rules among them; a path rule must allow the real path) and the
 * read-only tools (their permission class, `ToolFacts.permission`); what is left is settled by
 * the mode: `bypassPermissions` allows, `acceptEdits` allows file edits in the workspace,
 * `dontAsk` and `plan` deny, `default` asks. `names`: the tools' facts (rein's by default).
 */
export function judgeCall(
  call: PermissionCall,
  policy: PermissionPolicy,
  sessionRules: readonly SourcedRule[] = [],
  hook?: HookSay,
  resolved?: ResolvedPath,
  names: ToolNames = knownToolNames(),
): Judgement {
  const { mode } = policy;
  const shell = names.permission(call.tool) === "execute";
  if (shell) {
    const command = commandOf(call, names);
    const what = destructiveCommand(command);
    if (what !== undefined) {
      return {
        decision: "deny",
        source: { kind: "destructive", what },
        reason: `rein never runs ${what}: it is on the built-in list of destructive commands, ` +
          "whatever the rules and the mode",
      };
    }
  }
  const rules = { ...policy.rules, allow: [...policy.rules.allow, ...sessionRules] };
  const verdict = combined(
    decide(call, rules, policy.context, names),
    resolved === undefined
      ? undefined
      : decide(atPath(call, resolved.realPath), rules, policy.context, names),
  );
  const rule = verdict.rule;
  if (verdict.decision === "deny") {
    return rule === undefined
      ? { decision: "deny", source: { kind: "mode", mode }, reason: "Denied" }
      : { decision: "deny", source: ruleSource(rule), reason: `${describe(rule)} denies it` };
  }
  const edits = names.editsFiles(call.tool);
  const guarded = edits ? guardedWrite(call, policy, resolved) : undefined;
  if (guarded !== undefined) return settleGuarded(call, policy, guarded, names);
  const readOnly = names.permission(call.tool) === "read-only" ||
    (verdict.decision === "allow" && rule === undefined) ||
    (shell &&
      decide(call, { ...NO_RULES, claudeBash: rules.claudeBash === true }, policy.context, names)
          .decision === "allow");
  if (mode === "plan" && !readOnly) {
    return {
      decision: "deny",
      source: { kind: "mode", mode },
      reason: "Plan mode: only read-only tools run until the plan is approved. Present the " +
        "plan instead of making changes",
    };
  }
  if (hook?.decision === "ask") {
    return settleByMode(
      call,
      policy,
      `a PreToolUse hook asks${hook.reason ? `: ${hook.reason}` : ""}`,
      names,
    );
  }
  if (verdict.decision === "ask" && rule !== undefined) {
    return settleByMode(call, policy, `${describe(rule)} asks before it runs`, names);
  }
  // A hook's allow weighs as an allow rule: it never skips a deny or ask rule or the question
  // about .claude/ and .git/ above.
  if (hook?.decision === "allow") {
    return {
      decision: "allow",
      source: { kind: "hook", command: hook.command },
      reason: `A PreToolUse hook allowed it${hook.reason ? `: ${hook.reason}` : ""}`,
    };
  }
  if (verdict.decision === "allow") {
    return rule === undefined
      ? { decision: "allow", source: { kind: "read_only" }, reason: "Read-only command" }
      : { decision: "allow", source: ruleSource(rule), reason: `${describe(rule)} allows it` };
  }
  if (readOnly) {
    return { decision: "allow", source: { kind: "read_only" }, reason: "Read-only tool" };
  }
  if (
    mode === "acceptEdits" && edits && insideWorkspace(call, policy) &&
    (resolved === undefined || insideWorkspace(atPath(call, resolved.realPath), policy))
  ) {
    return {
      decision: "allow",
      source: { kind: "mode", mode },
      reason: "acceptEdits mode allows file edits in the workspace",
    };
  }
  return settleByMode(call, policy, "no permission rule allows it", names);
}

/** `call` with its path replaced by `path` (a file tool's real path). */
function atPath(call: PermissionCall, path: string): PermissionCall {
  const { file_path: _written, ...input } = call.input;
  return { tool: call.tool, input: { ...input, path } };
}

/**
 * What the rules say about a file tool's call judged on its path as written and on its real
 * path: a deny or an ask on either holds (the first found on the path as written); an allow
 * needs the real path allowed, as that is the file the tool touches.
 */
function combined(
  written: PermissionDecision<SourcedRule>,
  real: PermissionDecision<SourcedRule> | undefined,
): PermissionDecision<SourcedRule> {
  if (real === undefined) return written;
  for (const decision of ["deny", "ask"] as const) {
    if (written.decision === decision && written.rule !== undefined) return written;
    if (real.decision === decision && real.rule !== undefined) return real;
  }
  return real;
}

const GUARDED_REASON = "it changes rein's settings or git's configuration and hooks";

/**
 * The file a write would change under the project's `.claude/` or `.git/`: its real path when
 * that, the path as written or a symbolic link's target on the way lies there (the path as
 * written when nothing was resolved); undefined otherwise.
 */
function guardedWrite(
  call: PermissionCall,
  policy: PermissionPolicy,
  resolved: ResolvedPath | undefined,
): string | undefined {
  const written = callPath(call, policy.context.cwd);
  if (written === undefined) return undefined;
  const root = policy.context.projectRoot;
  const real = resolved?.realPath ?? written;
  const paths = [written, real, ...resolved?.via ?? []];
  return paths.some((path) => guardedFolder(root, path) !== undefined) ? real : undefined;
}

/**
 * A write under `.claude/` or `.git/`: a person answers it in every mode but two. Claude Code's
 * `bypassPermissions` writes there without asking, and so does rein's; `plan` and `dontAsk`
 * deny it. No rule, hook or earlier "always" answers it.
 */
function settleGuarded(
  call: PermissionCall,
  policy: PermissionPolicy,
  file: string,
  names: ToolNames,
): Judgement {
  const { mode } = policy;
  if (mode === "bypassPermissions") {
    return {
      decision: "allow",
      source: { kind: "mode", mode },
      reason: "bypassPermissions mode allows it, writes to .claude/ and .git/ included",
      protectedPath: file,
    };
  }
  if (mode === "dontAsk" || mode === "plan") {
    return {
      decision: "deny",
      source: { kind: "mode", mode },
      reason: `${mode} mode denies what would ask (${GUARDED_REASON}; only a person may allow ` +
        "that)",
      protectedPath: file,
    };
  }
  return {
    decision: "ask",
    asked: GUARDED_REASON,
    suggestion: suggestRule(call, policy.context.cwd, policy.context.projectRoot, names),
    protectedPath: file,
  };
}

function settleByMode(
  call: PermissionCall,
  policy: PermissionPolicy,
  asked: string,
  names: ToolNames,
): Judgement {
  const { mode } = policy;
  if (mode === "bypassPermissions") {
    return { decision: "allow", source: { kind: "mode", mode }, reason: "bypassPermissions mode" };
  }
  if (mode === "dontAsk") {
    return {
      decision: "deny",
      source: { kind: "mode", mode },
      reason: `dontAsk mode denies what would ask (${asked})`,
    };
  }
  return {
    decision: "ask",
    asked,
    suggestion: suggestRule(call, policy.context.cwd, policy.context.projectRoot, names),
  };
}

function ruleSource(rule: SourcedRule): PermissionSource {
  return rule.file === "" ? { kind: "session", rule: rule.text } : {
    kind: "rule",
    rule: rule.text,
    file: rule.file,
  };
}

/** `Permission rule "Bash(rm *)" in "/p/.claude/settings.json"`, for reasons and `/permissions`. */
export function describe(rule: SourcedRule): string {
  if (rule.file === "") return `The rule "${rule.text}" allowed earlier in this session`;
  const where = rule.file.startsWith("--") ? `from ${rule.file}` : `in "${rule.file}"`;
  return `Permission rule "${rule.text}" ${where}`;
}

/** The command a shell tool's call runs (its command field). */
function commandOf(call: PermissionCall, names: ToolNames): string {
  const command = call.input[names.facts(call.tool)?.commandField ?? "command"];
  return typeof command === "string" ? command : "";
}

function callPath(call: PermissionCall, cwd: string): string | undefined {
  const given = call.input["path"] ?? call.input["file_path"];
  if (typeof given !== "string" || given === "") return undefined;
  return isAbsolute(given) ? resolve(given) : resolve(cwd, given);
}

function insideWorkspace(call: PermissionCall, policy: PermissionPolicy): boolean {
  const file = callPath(call, policy.context.cwd);
  if (file === undefined) return false;
  const { cwd, home } = policy.context;
  return [cwd, ...policy.additionalDirectories].some((dir) => {
    const base = dir === "~" || dir.startsWith("~/") ? `${home}${dir.slice(1)}` : resolve(cwd, dir);
    const path = relative(base, file);
    return path !== "" && !path.startsWith("..") && !isAbsolute(path);
  });
}

/**
 * A rule that would allow calls like `call`, as Claude Code words them: a bash command's program
 * and subcommand (`Bash(npm test *)`), a file edit's path from the project root
 * (`Edit(/src/app.ts)`), otherwise the tool (`mcp__github__create_issue`). Pure.
 */
export function suggestRule(
  call: PermissionCall,
  workspace: string,
  projectRoot: string = workspace,
  names: ToolNames = knownToolNames(),
): string {
  if (names.permission(call.tool) === "execute") {
    const command = commandOf(call, names);
    const lexed = lexCommand(command);
    const first = lexed.parts[0];
    if (first === undefined) return "Bash";
    const words = unwrapTokens(first).tokens;
    const text = tokensText(words).split(/\s+/);
    const [program, sub] = text;
    if (program === undefined || program === "") return "Bash";
    // A program that runs whatever its arguments say gets no prefix rule: only this command.
    if (
      lexed.complex || lexed.parts.length > 1 || RUNS_ANYTHING.has(program.replace(/^.*\//, ""))
    ) {
      return `Bash(${command.trim().replaceAll("(", "\\(").replaceAll(")", "\\)")})`;
    }
    const prefix = sub !== undefined && /^[a-z][\w:.-]*$/.test(sub) ? `${program} ${sub}` : program;
    return `Bash(${prefix} *)`;
  }
  if (names.editsFiles(call.tool)) {
    const file = callPath(call, workspace);
    if (file === undefined) return "Edit";
    // `/x` is anchored at the project root, wherever the agent works (a subagent's folder).
    const path = relative(projectRoot, file);
    return path.startsWith("..") || isAbsolute(path) ? `Edit(/${file})` : `Edit(/${path})`;
  }
  // A file reader only asks by an ask rule; its suggestion has been rein's name (logs record it).
  if (names.readsFiles(call.tool)) return call.tool;
  return names.claudeName(call.tool) ?? call.tool;
}
