import type { Harness } from "../core/harness.ts";
import type { AgentLoop } from "../core/loop/agent_loop.ts";
import {
  type Command,
  commandSet,
  commandsOf,
  expandCommand,
  findCommand,
} from "../core/commands/mod.ts";
import { expandSkill, skillSet, skillsOf } from "../core/skills/mod.ts";
import type { RecordedFile } from "../events/event_types.ts";
import { judgeCall } from "../core/permissions/judge.ts";
import { permissionsOf } from "../core/permissions/session_permissions.ts";
import { parseRule } from "../core/permissions/rule.ts";
import { credentialPaths } from "../core/sandbox/credential_paths.ts";
import { modelChoice } from "./model_choice.ts";
import { expandMcpPrompt, findMcpPrompt, mcpServersOf } from "../core/mcp/mod.ts";

/** What `/name args` typed by the person (REPL, `-p`) becomes. */
export type SlashOutcome =
  /** Neither a skill nor a custom command of the session. */
  | { kind: "unknown" }
  /** The prompt to run (recorded already: `skill.invoked` or `command.invoked`). */
  | { kind: "prompt"; prompt: string; model?: string }
  /** The command could not run (a `` !`cmd` `` line not allowed); recorded, no prompt follows. */
  | { kind: "refused"; message: string };

/**
 * Run `input` (`/name args`) as a skill of the session (a skill's name first, as before), else as
 * one of its custom commands: the invocation is recorded from outside the loop (`skill.invoked`,
 * `command.invoked` with what the command's `` !`cmd` `` lines printed and the `@file`s it
 * inlined), then its prompt is returned for the caller to run. A command's shell lines run
 * through the agent's bash tool (sandboxed as a call is), each allowed by the session's rules or
 * the command's `allowed-tools`.
 */
export async function invokeSlash(
  harness: Harness,
  session: AgentLoop,
  input: string,
  signal: AbortSignal,
  /**
   * The files a reopened session is about to record with its resume (read from disk now): its
   * skills and commands are found there, as a new session's are in the files it started with.
   */
  files?: readonly RecordedFile[],
): Promise<SlashOutcome> {
  const trimmed = input.trim();
  const name = (trimmed.split(/\s+/)[0] ?? "").slice(1);
  const args = trimmed.slice(name.length + 1).trim();
  const where = { session: session.id, agent: session.agent };
  const skills = files === undefined ? skillsOf(harness.state, session.id) : skillSet(files).items;
  // An MCP server's prompt (`/mcp__server__prompt args`), got live (once the servers are up):
  // its text is the prompt, recorded as the person's.
  const servers = name.startsWith("mcp__") ? mcpServersOf(harness.deps.effects) : undefined;
  await servers?.started();
  const mcpPrompt = servers && findMcpPrompt(servers.states(), name);
  if (mcpPrompt !== undefined && servers !== undefined) {
    const expanded = await expandMcpPrompt(servers, mcpPrompt, args, signal);
    return expanded.kind === "prompt" ? expanded : { kind: "refused", message: expanded.message };
  }
  const skill = skills.find((s) => s.name === name);
  if (skill !== undefined) {
    await harness.store.append([{
      type: "skill.invoked",
      data: { name: skill.name, arguments: args, path: skill.path },
      ...where,
    }]);
    return { kind: "prompt", prompt: expandSkill(skill, args) };
  }
  // A plugin's command answers to `/<plugin>:name`, and to `/name` while no other command has it.
  const workspace = session.view.workspace;
  const commands = files === undefined
    ? commandsOf(harness.state, session.id)
    : commandSet(files, workspace).items;
  const command = findCommand(commands, name);
  if (command === undefined) return { kind: "unknown" };
  const permissions = permissionsOf(harness.state, session.id);
  const invoked = await expandCommand(command, args, {
    workspace,
    credentials: credentialPaths(permissions?.policy.context.home, {}),
    refuse: (line) => refusal(harness, session, command, line),
    run: async (line) => {
      const bash = harness.findTool("bash", where);
      if (bash === undefined) return { output: "(bash is not available)", isError: true };
      const result = await bash.run({ command: line }, {
        signal,
        ...where,
        callId: `command-${crypto.randomUUID()}`,
        cwd: workspace,
        view: () => harness.state,
      });
      return { output: result.content, isError: result.isError === true };
    },
  });
  await harness.store.append([{ type: "command.invoked", data: invoked, ...where }]);
  if (invoked.refused !== undefined) return { kind: "refused", message: invoked.refused };
  return {
    kind: "prompt",
    prompt: invoked.prompt,
    ...(command.model === undefined ? {} : { model: command.model }),
  };
}

/**
 * Why the command's shell line `line` may not run, or undefined: judged as a bash call of the
 * agent by the session's rules and mode, with the command's `allowed-tools` as allow rules (not
 * a project command's in a session that did not trust the folder).
 */
function refusal(
  harness: Harness,
  session: AgentLoop,
  command: Command,
  line: string,
): string | undefined {
  const permissions = permissionsOf(harness.state, session.id);
  if (permissions === undefined) return undefined;
  // An untrusted repository's command pre-approves nothing, as its allow rules are not applied.
  const view = harness.state.sessions.byId[session.id];
  const untrusted = view?.settings?.trusted === false && command.scope === "project";
  const granted = (untrusted ? [] : command.allowedTools).flatMap((text) => {
    const parsed = parseRule(text);
    return parsed.ok ? [{ ...parsed.rule, file: command.path }] : [];
  });
  const judged = judgeCall(
    { tool: "bash", input: { command: line } },
    permissions.policy,
    [...permissions.sessionRules, ...granted],
  );
  const hint = untrusted && command.allowedTools.length > 0
    ? "; this folder is not trusted, so its commands' allowed-tools do not apply (rein trust)"
    : "";
  if (judged.decision === "ask") return `${judged.asked}${hint}`;
  return judged.decision === "deny" ? `${judged.reason}${hint}` : undefined;
}

/**
 * Run `work` (a command's turn) with the command's `model` (an id or an alias; `inherit` or none:
 * the session's), switching back after it; each switch is recorded as `/model`'s is.
 */
export async function withCommandModel<T>(
  session: AgentLoop,
  model: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (model === undefined || model === "inherit") return work();
  const { model: before, maxTokens } = session.conversation;
  const choice = modelChoice(model);
  await session.switchModel(choice.model, choice.maxTokens);
  try {
    return await work();
  } finally {
    await session.switchModel(before, maxTokens);
  }
}

/**
 * The `/help` lines of the session's custom commands and skills a person can run by name:
 * `/name [hint]`, its description, and whose it is (`project`, `user:frontend`,
 * `plugin:formatter`). Pure.
 */
export function slashHelp(harness: Harness, session: string): string[] {
  const commands = commandsOf(harness.state, session).map((c) =>
    `  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}  ${c.description} ` +
    `(${c.plugin === undefined ? c.scope : `plugin:${c.plugin}`}${
      c.namespace ? `:${c.namespace}` : ""
    })`
  );
  const skills = skillsOf(harness.state, session).map((s) =>
    `  /${s.name}${s.argumentHint ? ` ${s.argumentHint}` : ""}  ${s.description} (skill)`
  );
  const lines = [...commands, ...skills];
  return lines.length === 0 ? [] : ["Custom commands and skills:", ...lines];
}

/**
 * The names a person can run with `/` in `session` beyond rein's own: its custom commands and
 * skills, for stream-json's `init` (`slash_commands`). Pure.
 */
export function slashNames(harness: Harness, session: string): string[] {
  return [
    ...commandsOf(harness.state, session).map((c) => c.name),
    ...skillsOf(harness.state, session).map((s) => s.name),
  ];
}

/** A command as the Agent SDK's `initialize` response lists it. */
export interface SlashCommandInfo {
  name: string;
  description: string;
  argumentHint: string;
}

/** The session's custom commands and skills, for `initialize`'s `commands`. Pure. */
export function slashInfo(harness: Harness, session: string): SlashCommandInfo[] {
  return [
    ...commandsOf(harness.state, session),
    ...skillsOf(harness.state, session),
  ].map((item) => ({
    name: item.name,
    description: item.description,
    argumentHint: item.argumentHint ?? "",
  }));
}
