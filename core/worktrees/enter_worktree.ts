import { join, resolve } from "../../events/posix_path.ts";
import type { ReinEvent } from "../../events/event_types.ts";
import { agentPlace } from "../state/agent_place.ts";
import type { State } from "../state/state.ts";
import type { Tool, ToolCallContext, ToolResult } from "../tools/tool.ts";
import { hookedWorktree } from "./create_worktree.ts";
import { moveRefusal } from "./move_agent.ts";
import { liveWorktree, type WorktreeEntry, worktreesOf } from "./worktree_catalog.ts";
import type { WorktreeGit } from "./worktree_git.ts";
import type { WorktreeHookRunner } from "./worktree_hooks.ts";
import { worktreeNameProblem } from "./worktree_name.ts";

/** Input of enter_worktree (Claude Code's EnterWorktree). */
export interface EnterWorktreeInput {
  /** The worktree to enter, made now when there is none of that name. */
  name?: string;
  /** The folder of an existing worktree to enter. */
  path?: string;
}

/** The only description of enter_worktree's input: a JSON Schema. */
export const ENTER_WORKTREE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    name: {
      type: "string",
      description: 'The worktree\'s name: "/"-separated segments of letters, digits, ".", "_" ' +
        'and "-", at most 64 characters. Made when there is none; a name is chosen if omitted',
    },
    path: { type: "string", description: "The folder of an existing worktree to enter instead" },
  },
  additionalProperties: false,
};

const description =
  `Moves you into a git worktree of this repository: your working directory becomes the worktree, so your file tools and commands work there (and nowhere else of the repository) until exit_worktree.

- With name: the worktree of that name, made first (at .claude/worktrees/<name>, on a new branch worktree-<name> from HEAD) when there is none. Without name or path, a new one with a chosen name.
- With path: an existing worktree, by its folder.
- A worktree another agent works in cannot be entered.
- exit_worktree goes back to where you were, keeping the worktree or removing it.`;

const WORDS = [
  ["bright", "calm", "quick", "quiet", "brave", "lucky", "gentle", "swift", "bold", "keen"],
  ["running", "jumping", "singing", "dancing", "rolling", "flying", "diving", "climbing"],
  ["fox", "otter", "heron", "lynx", "panda", "badger", "falcon", "whale", "gecko", "owl"],
] as const;

/** A name as Claude Code chooses one (`bright-running-fox`), not taken in `state`. Live only. */
export function chosenName(state: State, random: () => number = Math.random): string {
  for (let tries = 0;; tries++) {
    const words = WORDS.map((list) => list[Math.floor(random() * list.length)] as string);
    const name = tries < 20 ? words.join("-") : `${words.join("-")}-${tries}`;
    if (liveWorktree(state, name) === undefined) return name;
  }
}

/** The `agent.moved` that puts the caller in `entry`, or why it cannot go. Pure. */
export function enterDecision(state: State, context: EnterContext, entry: WorktreeEntry): {
  why?: string;
  events: ReinEvent[];
} {
  const place = agentPlace(state.sessions.byId[context.session], context.agent);
  if (place.worktree === entry.name) {
    return { why: `You are in worktree "${entry.name}" already`, events: [] };
  }
  const refusal = moveRefusal(state, context.session, context.agent, entry.path, entry.name);
  if (refusal !== undefined) return { why: refusal, events: [] };
  return { events: [{ type: "agent.moved", data: { cwd: entry.path, worktree: entry.name } }] };
}

/** The call's session and agent: who moves. */
type EnterContext = Pick<ToolCallContext, "session" | "agent">;

/** The model's result for `agent` entering `entry` of `workspace`. Pure. */
export function enteredText(workspace: string, entry: WorktreeEntry, made: boolean): string {
  const how = made ? `Created and entered worktree` : `Entered worktree`;
  return `${how} "${entry.name}" at ${join(workspace, entry.path)} on branch ${entry.branch}. ` +
    "Your working directory is now the worktree: your file tools and commands work there. " +
    "Call exit_worktree to go back (keep or remove it).";
}

/**
 * `enter_worktree` (Claude Code's `EnterWorktree {name | path}`): moves the calling agent into a
 * worktree (its `agent.moved`), made first when `name` names none (as `create_worktree`, with its
 * WorktreeCreate hooks). Entering one decides under the log's lock that no other agent works in
 * it. An effect: git runs live and replay serves its result and events.
 */
export function createEnterWorktreeTool(
  git: WorktreeGit,
  hooks?: WorktreeHookRunner,
): Tool<EnterWorktreeInput> {
  return {
    name: "enter_worktree",
    claudeNames: ["EnterWorktree"],
    specifierFields: ["name", "path"],
    pathFields: ["path"],
    description,
    inputSchema: ENTER_WORKTREE_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // As Claude Code's EnterWorktree, it does not ask: it adds a folder and a branch at most.
    permission: "read-only",
    summarize: (input) => input.name ?? input.path ?? "",
    async run(input, context): Promise<ToolResult> {
      const state = context.view();
      if (input.name !== undefined && input.path !== undefined) {
        return { content: "Give name or path, not both", isError: true };
      }
      const existing = input.path !== undefined
        ? byPath(state, git.workspace, input.path)
        : input.name === undefined
        ? undefined
        : liveWorktree(state, input.name);
      if (input.path !== undefined && existing === undefined) {
        return {
          content: `No worktree of this repository at "${input.path}": enter one made by ` +
            "create_worktree or enter_worktree, by its name",
          isError: true,
        };
      }
      if (existing !== undefined) {
        const entry = existing;
        const decide = (now: State): ToolResult => {
          const decided = enterDecision(now, context, entry);
          return decided.why === undefined
            ? { content: enteredText(git.workspace, entry, false), events: decided.events }
            : { content: decided.why, isError: true };
        };
        return { ...decide(state), decide };
      }
      const name = input.name ?? chosenName(state);
      const bad = worktreeNameProblem(name);
      if (bad !== undefined) return { content: bad, isError: true };
      const made = await hookedWorktree(git, hooks, context, { name });
      if ("refused" in made) return made.refused;
      const { created } = made;
      const entry: WorktreeEntry = {
        ...created,
        task: null,
        state: "active",
        createdBy: { session: context.session, agent: context.agent },
      };
      return {
        content: [enteredText(git.workspace, entry, true), ...made.notes].join("\n"),
        events: [
          ...made.hookEvents,
          { type: "worktree.created", data: created },
          { type: "agent.moved", data: { cwd: created.path, worktree: created.name } },
        ],
      };
    },
  };
}

/** The live worktree whose folder is `path` (absolute, or relative to `workspace`). Pure. */
function byPath(state: State, workspace: string, path: string): WorktreeEntry | undefined {
  const wanted = resolve(workspace, path).replace(/\/+$/, "");
  return Object.values(worktreesOf(state).byName).find((entry) =>
    entry.state !== "removed" && join(workspace, entry.path) === wanted
  );
}
