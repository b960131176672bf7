import type { Envelope } from "../../events/event_types.ts";
import { isInside } from "../files/is_inside.ts";
import { hasFeature } from "../settings/session_features.ts";
import type { Projection } from "../state/projection.ts";
import type { State } from "../state/state.ts";

/** The session feature of custom commands and of `allowed-tools` pre-approval. */
export const COMMANDS_FEATURE = "commands";

/** What pre-approves calls while an agent's turn runs: a command, or a skill, by name. */
export type Grant =
  | { kind: "command"; name: string; path: string; rules: string[] }
  | { kind: "skill"; name: string };

/** A session's grants: per agent, those of the turn it runs (or is about to run). */
export interface SessionGrants {
  byAgent: Record<string, Grant[]>;
  /** The agents whose turn the log shows running (prompted, not ended yet). */
  open?: Record<string, true>;
  /**
   * Per agent, what the person invoked (`/name`) while the log still showed an earlier turn
   * running (one a crash cut off, which the resume closes next): granted from the next prompt
   * on, so that turn's end does not take it away.
   */
  pending?: Record<string, Grant[]>;
  /** The load_skill calls requested and not completed yet: the skill's name, by call id. */
  loading: Record<string, string>;
}

/** Grants per session id. */
export type CommandGrants = Record<string, SessionGrants>;

/** A rule pre-approved now, and the file that wrote it (its `allowed-tools`). */
export interface GrantedRule {
  rule: string;
  file: string;
}

/** A skill's `allowed-tools` and its SKILL.md, by the skill's name, from the session's record. */
export type SkillRules = (
  state: State,
  session: string,
  name: string,
) => { rules: readonly string[]; file: string } | undefined;

/**
 * What pre-approves an agent's calls now, folded from the log: a command the person ran
 * (`command.invoked`, not refused) or a skill invoked by `/name` (`skill.invoked`) or loaded by
 * the model (a `load_skill` call that completed without error) grants its `allowed-tools` to the
 * agent until its turn ends (`turn.ended`), as Claude Code does; one invoked while the log still
 * shows an earlier turn running (cut off by a crash: `--continue -p "/name"`) from the next
 * prompt on. Pure.
 */
export const commandGrantsProjection: Projection<CommandGrants> = {
  key: "commands",
  canHandle: [
    "command.invoked",
    "skill.invoked",
    "user.prompted",
    "tool.requested",
    "tool.completed",
    "turn.ended",
  ],
  initial: () => ({}),
  evolve(sessions, event: Envelope) {
    const session = () => sessions[event.session] ??= { byAgent: {}, loading: {} };
    const add = (grant: Grant) => (session().byAgent[event.agent] ??= []).push(grant);
    const invoke = (grant: Grant) =>
      sessions[event.session]?.open?.[event.agent]
        ? ((session().pending ??= {})[event.agent] ??= []).push(grant)
        : add(grant);
    if (event.type === "command.invoked") {
      if (event.data.refused !== undefined || event.data.allowedTools.length === 0) return sessions;
      const { name, path, allowedTools } = event.data;
      invoke({ kind: "command", name, path, rules: allowedTools });
    } else if (event.type === "skill.invoked") {
      invoke({ kind: "skill", name: event.data.name });
    } else if (event.type === "user.prompted") {
      const mine = session();
      (mine.open ??= {})[event.agent] = true;
      const pending = mine.pending?.[event.agent];
      if (pending === undefined) return sessions;
      delete mine.pending?.[event.agent];
      for (const grant of pending) add(grant);
    } else if (event.type === "tool.requested" && event.data.name === "load_skill") {
      const input = event.data.input as { skill?: unknown; file?: unknown } | null;
      if (typeof input?.skill !== "string" || input.file !== undefined) return sessions;
      const name = input.skill.trim().replace(/^\//, "");
      session().loading[event.data.callId] = name;
    } else if (event.type === "tool.completed" && event.data.name === "load_skill") {
      const { loading } = session();
      const name = loading[event.data.callId];
      delete loading[event.data.callId];
      if (name !== undefined && !event.data.isError && event.data.outcome === undefined) {
        add({ kind: "skill", name });
      }
    } else if (event.type === "turn.ended") {
      const mine = sessions[event.session];
      if (mine) delete mine.byAgent[event.agent];
      if (mine?.open) delete mine.open[event.agent];
    }
    return sessions;
  },
};

/**
 * The rules pre-approved for `agent`'s calls now (see {@link commandGrantsProjection}), each with
 * the file that wrote it: a command's `allowed-tools`, a skill's (`skillRules`: from the
 * session's recorded skills). None from the repository's own files (inside the workspace) when
 * the session did not trust it (`settings.trusted` false) but a plugin's (the person chose it), and none in a session recorded
 * without the `commands` feature, so older sessions decide as they did. Pure.
 */
export function grantedRules(
  state: State,
  session: string,
  agent: string,
  skillRules: SkillRules,
): GrantedRule[] {
  if (!hasFeature(state, session, COMMANDS_FEATURE)) return [];
  const slice = state.extensions[commandGrantsProjection.key] as CommandGrants | undefined;
  const grants = slice?.[session]?.byAgent[agent];
  if (!grants || grants.length === 0) return [];
  const view = state.sessions.byId[session];
  // An untrusted repository's own files grant nothing, as its allow rules are not applied.
  const untrusted = view?.settings?.trusted === false;
  // A plugin's files are the person's choice (--plugin-dir), wherever the plugin lies.
  const chosen = new Set(
    (untrusted ? view?.files ?? [] : []).flatMap((file) => file.plugin ? [file.path] : []),
  );
  const applies = (file: string) =>
    chosen.has(file) || !(untrusted && view && isInside(view.workspace, file));
  const rules: GrantedRule[] = [];
  for (const grant of grants) {
    if (grant.kind === "command") {
      if (!applies(grant.path)) continue;
      for (const rule of grant.rules) rules.push({ rule, file: grant.path });
    } else {
      const skill = skillRules(state, session, grant.name);
      if (skill === undefined || !applies(skill.file)) continue;
      for (const rule of skill.rules) rules.push({ rule, file: skill.file });
    }
  }
  return rules;
}
