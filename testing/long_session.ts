/**
 * Issue 9's scripted long session, shared by tests/long_session_test.ts (killed mid-subagent,
 * resumed, replayed) and bench/prefix_bench.ts (prefix stability): 30 rounds of the lead with a
 * todo list, the bundled `investigate-a-run` skill, reads of CLAUDE.md and commands, and two
 * subagents at once (an Explore one and a general-purpose one whose command sleeps 4 s).
 *
 * @module
 */
import { message, toolUse } from "./fake_anthropic.ts";
import type { FakeScriptFn } from "./fake_replies.ts";
import { firstUserText, toolResultCount } from "./scenarios.ts";

/** The lead's model rounds. */
export const ROUNDS = 30;
/** The lead's prompt. */
export const LEAD = "Build the report";
const EXPLORE = "Count the markdown files";
const WORKER = "Append the child line";

function todos(done: number) {
  return {
    todos: ["Read the rules", "Delegate the survey", "Write the report"].map((content, i) => ({
      content,
      activeForm: `Doing: ${content}`,
      status: i < done ? "completed" : i === done ? "in_progress" : "pending",
    })),
  };
}

/** The lead's call in round `n` (0-based), the children's calls, then their answers. */
export const longSession: FakeScriptFn = (request) => {
  const body = request.body;
  const task = firstUserText(body?.messages ?? []);
  const done = toolResultCount(body);
  if (task === EXPLORE) {
    return done === 0
      ? message([toolUse("toolu_explore_glob", "glob", { pattern: "**/*.md" })])
      : message("There are markdown files.");
  }
  if (task === WORKER) {
    return done === 0
      ? message([
        toolUse("toolu_worker_bash", "bash", { command: "echo child >> out.txt; sleep 4" }),
      ])
      : message("The child line is written.");
  }
  const round = (body?.messages ?? []).filter((m) => m.role === "assistant").length;
  if (round === 0) return message([toolUse("toolu_todo_0", "todo_write", todos(0))]);
  if (round === 1) {
    return message([toolUse("toolu_skill", "load_skill", { skill: "investigate-a-run" })]);
  }
  if (round === 2) {
    return message([
      toolUse("toolu_task_explore", "task", {
        description: "count markdown",
        prompt: EXPLORE,
        subagent_type: "Explore",
      }),
      toolUse("toolu_task_worker", "task", {
        description: "append a line",
        prompt: WORKER,
        subagent_type: "general-purpose",
      }),
    ]);
  }
  if (round === 3) return message([toolUse("toolu_todo_3", "todo_write", todos(2))]);
  if (round < ROUNDS - 1) {
    return round % 2 === 0
      ? message([toolUse(`toolu_read_${round}`, "read_file", { path: "CLAUDE.md" })])
      : message([toolUse(`toolu_echo_${round}`, "bash", { command: `echo r${round} >> out.txt` })]);
  }
  return message("The report is done.");
};
