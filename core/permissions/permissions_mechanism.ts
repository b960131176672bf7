import { isRecord } from "../settings/is_record.ts";
import type { PermissionDecided } from "../../events/event_types.ts";
import type { GateDecision, StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { addAllowRule } from "../settings/save_rule.ts";
import type { PendingCall } from "../state/conversation.ts";
import { hooksProjection } from "../hooks/hooks_projection.ts";
import { verdictOf } from "../hooks/hooks_mechanism.ts";
import { sliceOf } from "../state/state.ts";
import { type HookSay, judgeCall, type Judgement } from "./judge.ts";
import { loadPathMatcher } from "./path_match.ts";
import { permissionsProjection } from "./permissions_projection.ts";
import type { PermissionPolicy } from "./policy.ts";
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
}

/** The person's answer: run it once, run it and save the rule, or refuse (with a reason). */
export interface PermissionAnswer {
  answer: "yes" | "always" | "no";
  reason?: string;
  /** Ctrl-C at the question: refuse, and the turn is cancelled. */
  cancelled?: boolean;
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
  const judged = judgeCall(
    { tool: call.name, input },
    agentPolicy(context, permissions.policy),
    permissions.sessionRules,
    hookSay(context, call.id),
  );
  const decided = judged.decision === "ask"
    ? await askFor(context, call, input, judged, options, permissions.policy.interactive)
    : { callId: call.id, tool: call.name, ...judged };
  const events = [{ type: "permission.decided" as const, data: decided }];
  return decided.decision === "allow"
    ? { run: true, events }
    : { run: false, outcome: "denied", reason: decided.reason, events };
}

function askFor(
  context: StageContext,
  call: PendingCall,
  input: Record<string, unknown>,
  judged: Extract<Judgement, { decision: "ask" }>,
  options: PermissionsOptions,
  interactive: boolean,
): Promise<PermissionDecided> {
  const base = { callId: call.id, tool: call.name, asked: judged.asked };
  if (!interactive) {
    return Promise.resolve({
      ...base,
      decision: "deny",
      source: { kind: "headless", suggestion: judged.suggestion },
      reason: `This call needs permission (${judged.asked}) and nobody can be asked in a ` +
        `headless run, so it was denied. The user can allow it with --allowedTools ` +
        `"${judged.suggestion}" or a permissions.allow rule in .claude/settings.json`,
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
    if (answer.answer === "yes") {
      return {
        ...base,
        decision: "allow",
        source: { kind: "user", answer: "yes" },
        reason: "The user allowed it once",
      };
    }
    const savedTo = await addAllowRule(options.workspace, judged.suggestion);
    return {
      ...base,
      decision: "allow",
      source: { kind: "user", answer: "always", rule: judged.suggestion, savedTo },
      reason: `The user allowed it and calls matching "${judged.suggestion}" from now on`,
    };
  });
}

/**
 * The policy for this agent: a subagent whose definition names a `permissionMode` runs in that
 * mode, except that only the person's own definitions (`~/.claude/agents/`) may turn checks off
 * with `bypassPermissions`; a repository's may not.
 */
function agentPolicy(context: StageContext, policy: PermissionPolicy): PermissionPolicy {
  const view = context.view().sessions.byId[context.session];
  const spawn = view === undefined ? null : agentOf(view, context.agent).spawn;
  const mode = spawn?.permissionMode;
  if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) return policy;
  const personal = spawn?.path?.startsWith(`${policy.context.home}/.claude/`) === true;
  if (mode === "bypassPermissions" && !personal) return policy;
  return { ...policy, mode: mode as PermissionMode };
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
