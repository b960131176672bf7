import { isRecord } from "../settings/is_record.ts";
import { dirname, join } from "../../events/posix_path.ts";
import type {
  PermissionDecided,
  PermissionPathResolved,
  ReinEvent,
} from "../../events/event_types.ts";
import type { GateDecision, PermissionUpdateAnswer, StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderPermissionEvent } from "./permissions_render.ts";
import { addAllowRule } from "../settings/save_rule.ts";
import type { PendingCall } from "../state/conversation.ts";
import { hooksProjection } from "../hooks/hooks_projection.ts";
import { verdictOf } from "../hooks/hooks_mechanism.ts";
import { sliceOf } from "../state/state.ts";
import { type HookSay, judgeCall, type Judgement } from "./judge.ts";
import { loadPathMatcher } from "./path_match.ts";
import { permissionsProjection } from "./permissions_projection.ts";
import { resolveCallPath, writtenCallPath } from "./resolve_call_path.ts";
import { agentCwd } from "../state/agent_place.ts";
import type { PermissionPolicy, SourcedRule } from "./policy.ts";
import { parseRule } from "./rule.ts";
import type { State } from "../state/state.ts";
import { agentOf } from "../state/sessions.ts";
import { PERMISSION_MODES, type PermissionMode } from "../settings/settings.ts";
import { permissionsOf } from "./session_permissions.ts";

/** A call a person is asked about. */
export interface PermissionQuestion {
  session: string;
  agent: string;
  callId: string;
  tool: string;
  input: Record<string, unknown>;
  /** Why it asks (`no permission rule allows it`, an ask rule). */
  asked: string;
  /** The rule "don't ask again" would save. */
  suggestion: string;
  /**
   * The file under `.claude/` or `.git/` the call writes (its real path): no rule is saved for
   * it, "don't ask again" allows this call only.
   */
  protectedPath?: string;
}

/** The person's answer: run it once, run it and save the rule, or refuse (with a reason). */
export interface PermissionAnswer {
  answer: "yes" | "always" | "no";
  reason?: string;
  /** Ctrl-C at the question: refuse, and the turn is cancelled. */
  cancelled?: boolean;
  /** Allowed with this input instead of the model's (a program's `updatedInput`). */
  input?: Record<string, unknown>;
}

/** Asks the person at the terminal; the REPL gives one, headless runs none. */
export type PermissionAsker = (
  question: PermissionQuestion,
  signal: AbortSignal,
) => Promise<PermissionAnswer>;

/** What the permissions mechanism is wired with. */
export interface PermissionsOptions {
  ask?: PermissionAsker;
  /** Where "don't ask again" rules are saved (`.claude/settings.local.json` under it). */
  workspace: string;
  /**
   * Rules pre-approved for an agent's calls now, each with the file that wrote it (a custom
   * command's or a skill's `allowed-tools` while its turn runs): allow rules beside the
   * session's own. Pure over the state, so replay decides alike.
   */
  granted?: (state: State, session: string, agent: string) => readonly GrantedRule[];
}

/** A rule pre-approved for a while (see `PermissionsOptions.granted`), and its file. */
export interface GrantedRule {
  rule: string;
  file: string;
}

/**
 * Permission rules, modes and the person's answers (s03) at the gate of every call. The decision
 * is a pure function of the recorded settings, the session's earlier answers and the call; a
 * person's answer is read through `observe`, so replay serves it and re-derives the rest, and
 * `--verify` fails where today's rules decide differently. Sessions recorded without settings
 * (before rein had permissions) are not gated.
 */
export function permissionsMechanism(options: PermissionsOptions): Mechanism {
  return {
    name: "permissions",
    render: renderPermissionEvent,
    // The rules (then the person) decide after PreToolUse hooks, whose verdicts they read.
    after: ["hooks"],
    projection: permissionsProjection,
    // A mode switched by the person between turns comes from outside the loop.
    fedTypes: ["permission.mode_changed"],
    sections: (scope) => {
      const sandbox = scope.state.sessions.byId[scope.session]?.settings?.sandbox;
      return sandbox === undefined
        ? []
        : [{ id: "sandbox", stability: 0, text: `# Sandbox\n${sandbox}` }];
    },
    stages: {
      gateCall: (context, call) => gate(context, call, options),
    },
  };
}

async function gate(
  context: StageContext,
  call: PendingCall,
  options: PermissionsOptions,
): Promise<GateDecision> {
  const permissions = permissionsOf(context.view(), context.session);
  if (permissions === undefined) return { run: true };
  await loadPathMatcher();
  const input = isRecord(call.input) ? call.input : {};
  const policy = agentPolicy(context, permissions.policy);
  // Where the path really leads is read live and recorded; replay serves the record (an older
  // log has none: its calls are judged on the path as written, as they were).
  const resolutions: ReinEvent[] = [];
  /** Each path judged, resolved once (a changed input may name the same path again). */
  const resolvedPaths = new Map<string | undefined, PermissionPathResolved | undefined>();
  /** The call with `given` as its input, judged (its path resolved live, recorded). */
  const judge = async (given: Record<string, unknown>, hook?: HookSay): Promise<Judgement> => {
    const what = { tool: call.name, input: given };
    const written = writtenCallPath(what, policy.context.cwd);
    let resolved = resolvedPaths.get(written);
    if (!resolvedPaths.has(written)) {
      resolved = await context.observeMaybe(
        "permission.path_resolved",
        (data) => data.callId === call.id && (written === undefined || data.path === written),
        async () => {
          const found = await resolveCallPath(what, policy.context.cwd);
          return found === undefined ? undefined : { callId: call.id, ...found };
        },
      );
      resolvedPaths.set(written, resolved);
      if (resolved !== undefined) {
        resolutions.push({ type: "permission.path_resolved", data: resolved });
      }
    }
    const rules = [...permissions.sessionRules, ...grantedSourced(context, options)];
    return judgeCall(what, policy, rules, hook, resolved);
  };
  const judged = await judge(input, hookSay(context, call.id));
  const decided = judged.decision === "ask"
    ? await askFor(context, call, input, judged, options, permissions.policy.interactive, judge)
    : { callId: call.id, tool: call.name, ...judged };
  const events: ReinEvent[] = [
    ...resolutions,
    { type: "permission.decided" as const, data: decided },
  ];
  if (decided.decision !== "allow") {
    return { run: false, outcome: "denied", reason: decided.reason, events };
  }
  // Allowed with the input the one who answered gave it instead (recorded: replay runs the same).
  const { source } = decided;
  const changed = source.kind === "user" || source.kind === "hook" ? source.input : undefined;
  return changed === undefined ? { run: true, events } : { run: true, events, input: changed };
}

/** Judges the call again with another input (a PermissionRequest hook's `updatedInput`). */
type Rejudge = (input: Record<string, unknown>) => Promise<Judgement>;

/** The rules `options.granted` pre-approves for the calling agent now, parsed. */
function grantedSourced(context: StageContext, options: PermissionsOptions): SourcedRule[] {
  const granted = options.granted?.(context.view(), context.session, context.agent) ?? [];
  return granted.flatMap(({ rule, file }) => {
    const parsed = parseRule(rule);
    return parsed.ok ? [{ ...parsed.rule, file }] : [];
  });
}

function askFor(
  context: StageContext,
  call: PendingCall,
  input: Record<string, unknown>,
  judged: Extract<Judgement, { decision: "ask" }>,
  options: PermissionsOptions,
  interactive: boolean,
  rejudge: Rejudge,
): Promise<PermissionDecided> {
  const { protectedPath } = judged;
  const base = {
    callId: call.id,
    tool: call.name,
    asked: judged.asked,
    ...(protectedPath === undefined ? {} : { protectedPath }),
  };
  if (!interactive && protectedPath !== undefined) {
    return Promise.resolve({
      ...base,
      decision: "deny",
      source: { kind: "headless" },
      reason: `This call needs a person's permission (${judged.asked}) and nobody can be asked ` +
        "in a headless run, so it was denied. No permission rule, hook or --allowedTools " +
        "allows it: only a person can, in an interactive session, or a run with " +
        "--permission-mode bypassPermissions",
    });
  }
  // A write under .claude/ or .git/ is for a person only: no hook decides it.
  if (protectedPath !== undefined) {
    return askPerson(context, call, input, judged, options, interactive, base);
  }
  return decidedByHooks(context, call, judged, base, options, rejudge).then((byHooks) => {
    if (byHooks !== undefined) return byHooks;
    return askPerson(context, call, input, judged, options, interactive, base);
  });
}

/** A PermissionRequest hook's decision in the person's place, recorded as the hook's; or none. */
async function decidedByHooks(
  context: StageContext,
  call: PendingCall,
  judged: Extract<Judgement, { decision: "ask" }>,
  base: Omit<PermissionDecided, "decision" | "source" | "reason">,
  options: PermissionsOptions,
  rejudge: Rejudge,
): Promise<PermissionDecided | undefined> {
  const { decision } = await context.stages.permissionRequest(context, call, {
    asked: judged.asked,
    suggestion: judged.suggestion,
  });
  if (decision === undefined) return undefined;
  const { command } = decision;
  if (decision.behavior === "deny") {
    return {
      ...base,
      decision: "deny",
      source: { kind: "hook", command, ...(decision.interrupt ? { interrupt: true } : {}) },
      reason: decision.message || "A PermissionRequest hook denied it",
    };
  }
  // A changed input is judged again: a deny rule, the destructive list or a write only a person
  // may allow refuses it, as they would the model's own input (a hook cannot smuggle one past).
  const { input } = decision;
  if (input !== undefined) {
    const again = await rejudge(input);
    const refused = again.decision === "deny"
      ? again.reason
      : again.decision === "ask" && again.protectedPath !== undefined
      ? `it writes "${again.protectedPath}", which only a person may allow`
      : undefined;
    if (refused !== undefined) {
      return {
        ...base,
        decision: "deny",
        source: { kind: "hook", command, input },
        reason: `A PermissionRequest hook allowed this call with a changed input, which was ` +
          `refused: ${refused}`,
      };
    }
  }
  const applied = appliedUpdates(decision.updates ?? []);
  const allowed: PermissionDecided = {
    ...base,
    decision: "allow",
    source: {
      kind: "hook",
      command,
      ...(input === undefined ? {} : { input }),
      ...(applied.rules.length > 0 ? { rules: applied.rules } : {}),
      ...(applied.mode === undefined ? {} : { mode: applied.mode }),
    },
    reason: [decision.message || "A hook allowed it", ...applied.notes].join("; "),
  };
  if (applied.save.length === 0) return allowed;
  // Rules the hook saved to .claude/settings.local.json, as the person's "always" is: written live
  // only (replay serves the recorded decision).
  return context.observe("permission.decided", (data) => data.callId === call.id, async () => {
    let savedTo: string | undefined;
    for (const rule of applied.save) savedTo = await addAllowRule(options.workspace, rule);
    return savedTo === undefined || allowed.source.kind !== "hook"
      ? allowed
      : { ...allowed, source: { ...allowed.source, savedTo } };
  });
}

/** What rein applies of a PermissionRequest hook's permission updates, and notes on the rest. */
interface AppliedUpdates {
  /** Allow rules for the rest of the session. */
  rules: string[];
  /** Those of them to save to `.claude/settings.local.json` too. */
  save: string[];
  /** The mode the session switches to. */
  mode?: PermissionMode;
  /** What was not applied, and why, in words. */
  notes: string[];
}

/**
 * Claude Code's permission updates as rein applies them, as if the person had chosen them:
 * `addRules` with `allow` adds session rules (saved to `.claude/settings.local.json` for
 * `localSettings`, as "don't ask again" saves them; other files are not written); `setMode` to a
 * mode other than `bypassPermissions` switches the session's mode. Others are noted. Pure.
 */
function appliedUpdates(updates: readonly PermissionUpdateAnswer[]): AppliedUpdates {
  const applied: AppliedUpdates = { rules: [], save: [], notes: [] };
  for (const update of updates) {
    if (update.type === "setMode") {
      const mode = update.mode as PermissionMode;
      if ((PERMISSION_MODES as readonly string[]).includes(mode) && mode !== "bypassPermissions") {
        applied.mode = mode;
      } else applied.notes.push(`its mode "${update.mode}" was not set (rein lets no hook set it)`);
      continue;
    }
    const valid = update.rules.filter((rule) => parseRule(rule).ok);
    for (const rule of update.rules) {
      if (!valid.includes(rule)) applied.notes.push(`its rule "${rule}" is not a valid rule`);
    }
    if (update.behavior !== "allow") {
      applied.notes.push(
        `its ${update.behavior} rules ${valid.join(", ")} were not added (rein adds only allow ` +
          "rules from hooks)",
      );
      continue;
    }
    applied.rules.push(...valid);
    if (update.destination === "localSettings") applied.save.push(...valid);
    else if (update.destination !== "session") {
      applied.notes.push(
        `its rules ${valid.join(", ")} apply for this session (rein saves a hook's rules only ` +
          "to .claude/settings.local.json)",
      );
    }
  }
  return applied;
}

function askPerson(
  context: StageContext,
  call: PendingCall,
  input: Record<string, unknown>,
  judged: Extract<Judgement, { decision: "ask" }>,
  options: PermissionsOptions,
  interactive: boolean,
  base: Omit<PermissionDecided, "decision" | "source" | "reason">,
): Promise<PermissionDecided> {
  const { protectedPath } = judged;
  if (!interactive) {
    // In an untrusted folder the repository's allow rules do nothing until it is trusted.
    const untrusted = context.view().sessions.byId[context.session]?.settings?.trusted === false;
    return Promise.resolve({
      ...base,
      decision: "deny",
      source: { kind: "headless", suggestion: judged.suggestion },
      reason: `This call needs permission (${judged.asked}) and nobody can be asked in a ` +
        `headless run, so it was denied. The user can allow it with --allowedTools ` +
        `"${judged.suggestion}" or a permissions.allow rule in .claude/settings.json` +
        (untrusted ? " (which applies once the folder is trusted: rein trust, or --trust)" : ""),
    });
  }
  return context.observe("permission.decided", (data) => data.callId === call.id, async () => {
    const { ask } = options;
    if (ask === undefined) throw new Error("No one to ask about a call in an interactive session");
    const question = {
      session: context.session,
      agent: context.agent,
      callId: call.id,
      tool: call.name,
      input,
      asked: judged.asked,
      suggestion: judged.suggestion,
      ...(protectedPath === undefined ? {} : { protectedPath }),
    };
    const answer = await ask(question, context.signal);
    if (answer.answer === "no") {
      const said = answer.reason ? ` They said: ${answer.reason}` : "";
      return {
        ...base,
        decision: "deny",
        source: {
          kind: "user",
          answer: "no",
          ...(answer.reason ? { reason: answer.reason } : {}),
          ...(answer.cancelled ? { cancelled: true } : {}),
        },
        reason: `The user refused this call.${said} Do not retry it; wait for the user to ` +
          "say how to proceed.",
      };
    }
    // A call allowed with another input runs with that, but for a protected write: the file it
    // names is the one asked about (an asker refuses such a change instead).
    const changed = answer.input !== undefined && protectedPath === undefined
      ? { input: answer.input }
      : {};
    // A write under .claude/ or .git/ asks every time: "always" allows this call only.
    if (answer.answer === "yes" || protectedPath !== undefined) {
      return {
        ...base,
        decision: "allow",
        source: { kind: "user", answer: "yes", ...changed },
        reason: answer.answer === "yes" || protectedPath === undefined
          ? "The user allowed it once"
          : "The user allowed it (once: writes to .claude/ and .git/ ask every time)",
      };
    }
    const savedTo = await addAllowRule(options.workspace, judged.suggestion);
    return {
      ...base,
      decision: "allow",
      source: { kind: "user", answer: "always", rule: judged.suggestion, savedTo, ...changed },
      reason: `The user allowed it and calls matching "${judged.suggestion}" from now on`,
    };
  });
}

/** Permission modes from the narrowest to the widest, for a subagent's definition. */
const MODE_WIDTH: Record<PermissionMode, number> = {
  plan: 0,
  dontAsk: 1,
  default: 2,
  acceptEdits: 3,
  bypassPermissions: 4,
};

/** Bound on the parents looked through for an agent's mode (a log could forge a loop). */
const MAX_AGENT_DEPTH = 64;

/**
 * The policy for this agent: a subagent whose definition names a `permissionMode` runs in that
 * mode if it is no wider than its parent's (plan < dontAsk < default < acceptEdits <
 * bypassPermissions; `plan` is below `dontAsk`, which runs what allow rules allow), else in its
 * parent's; only the person's own definitions (`~/.claude/agents/`) may widen it.
 */
function agentPolicy(context: StageContext, policy: PermissionPolicy): PermissionPolicy {
  const view = context.view().sessions.byId[context.session];
  if (view === undefined) return policy;
  // A spawn recorded in a part of the session made elsewhere may name a "personal" definition of
  // this machine's home it never read: only definitions read here may widen the mode.
  const foreign = sliceOf(context.view(), permissionsProjection)[context.session]?.foreign === true;
  const mine = join(policy.context.home, ".claude", "agents");
  const modeOf = (agent: string, depth: number): PermissionMode => {
    const spawn = agentOf(view, agent).spawn;
    if (spawn === null || spawn === undefined || depth > MAX_AGENT_DEPTH) return policy.mode;
    const parent = modeOf(spawn.parent, depth + 1);
    const wanted = spawn.permissionMode;
    if (wanted === undefined || !(PERMISSION_MODES as readonly string[]).includes(wanted)) {
      return parent;
    }
    const mode = wanted as PermissionMode;
    const personal = !foreign && spawn.path !== undefined && dirname(spawn.path) === mine;
    return personal || MODE_WIDTH[mode] <= MODE_WIDTH[parent] ? mode : parent;
  };
  const mode = modeOf(context.agent, 0);
  // A subagent given a folder: relative paths, `x` rules and acceptEdits' reach start there.
  const cwd = agentCwd(view, context.agent, policy.context.cwd);
  if (mode === policy.mode && cwd === policy.context.cwd) return policy;
  return { ...policy, mode, context: { ...policy.context, cwd } };
}

/** What the call's PreToolUse hooks (already run and recorded) said about its permission. */
function hookSay(context: StageContext, callId: string): HookSay | undefined {
  const runs = (sliceOf(context.view(), hooksProjection)[context.session]?.byCall[callId] ?? [])
    .filter((run) => run.hookEvent === "PreToolUse");
  const permission = verdictOf(runs).permission;
  if (permission === undefined || permission.decision === "deny") return undefined;
  const command = runs.map((run) => run.command).join(" · ");
  return { decision: permission.decision, reason: permission.reason, command };
}
