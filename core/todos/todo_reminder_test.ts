import assert from "node:assert/strict";
import type { TodoItem } from "../../events/event_types.ts";
import { TODO_REMINDER_ROUNDS, todoReminder } from "./todo_reminder.ts";
import type { AgentTodos } from "./todos_projection.ts";

const OPEN: TodoItem[] = [
  { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
  { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
  { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
];

function entry(overrides: Partial<AgentTodos>): AgentTodos {
  return {
    todos: OPEN,
    rounds: 0,
    writtenAtRound: 0,
    remindedAtRound: null,
    writes: [],
    ...overrides,
  };
}

Deno.test("the reminder is due 3 rounds after the last write, listing the items", () => {
  assert.equal(TODO_REMINDER_ROUNDS, 3);
  assert.equal(todoReminder(entry({ writtenAtRound: 2, rounds: 4 })), undefined);
  assert.equal(
    todoReminder(entry({ writtenAtRound: 2, rounds: 5 })),
    "Your todo list has not been updated for 3 model rounds. If you are still working through " +
      "it, bring it up to date with todo_write: mark finished items completed and the one you " +
      "are on in_progress. If the list no longer fits the task, rewrite it or leave it. Do not " +
      "mention this reminder to the user.\n\nTodos:\n1. [completed] Read the parser\n" +
      "2. [in_progress] Fix the bug\n3. [pending] Run the tests",
  );
});

Deno.test("after a reminder the next one waits another 3 rounds", () => {
  assert.equal(
    todoReminder(entry({ writtenAtRound: 2, remindedAtRound: 5, rounds: 5 })),
    undefined,
  );
  assert.equal(
    todoReminder(entry({ writtenAtRound: 2, remindedAtRound: 5, rounds: 7 })),
    undefined,
  );
  assert.match(
    todoReminder(entry({ writtenAtRound: 2, remindedAtRound: 5, rounds: 8 })) ?? "",
    /^Your todo list has not been updated for 6 model rounds/,
  );
});

Deno.test("a write after a reminder restarts the count from the write", () => {
  assert.equal(
    todoReminder(entry({ writtenAtRound: 6, remindedAtRound: 5, rounds: 8 })),
    undefined,
  );
  assert.ok(todoReminder(entry({ writtenAtRound: 6, remindedAtRound: 5, rounds: 9 })));
});

Deno.test("no reminder without a list, or when every item is completed", () => {
  assert.equal(todoReminder(entry({ todos: [], writtenAtRound: null, rounds: 9 })), undefined);
  assert.equal(todoReminder(entry({ todos: [], rounds: 9 })), undefined);
  const done = OPEN.map((todo) => ({ ...todo, status: "completed" as const }));
  assert.equal(todoReminder(entry({ todos: done, rounds: 9 })), undefined);
});
