import assert from "node:assert/strict";
import { EVENT_TYPES } from "./event_types.ts";
import { MODEL_EVENTS } from "./payloads/model.ts";
import { SESSION_EVENTS } from "./payloads/session.ts";
import { TOOL_EVENTS } from "./payloads/tool.ts";
import { PERMISSION_EVENTS } from "./payloads/permission.ts";
import { HOOK_EVENTS } from "./payloads/hook.ts";
import { TODO_EVENTS } from "./payloads/todo.ts";
import { MEMORY_EVENTS } from "./payloads/memory.ts";
import { SKILL_EVENTS } from "./payloads/skill.ts";
import { AGENT_EVENTS } from "./payloads/agent.ts";
import { COMPACTION_EVENTS } from "./payloads/compaction.ts";
import { CRON_EVENTS } from "./payloads/cron.ts";
import { ARRIVAL_EVENTS } from "./payloads/arrival.ts";
import { JOB_EVENTS } from "./payloads/job.ts";
import { TASK_EVENTS } from "./payloads/task.ts";

const TABLES = {
  SESSION_EVENTS,
  MODEL_EVENTS,
  TOOL_EVENTS,
  PERMISSION_EVENTS,
  HOOK_EVENTS,
  TODO_EVENTS,
  MEMORY_EVENTS,
  SKILL_EVENTS,
  AGENT_EVENTS,
  COMPACTION_EVENTS,
  CRON_EVENTS,
  ARRIVAL_EVENTS,
  JOB_EVENTS,
  TASK_EVENTS,
};

Deno.test("EVENT_TYPES lists exactly the types of the payload tables, each once", () => {
  const declared = Object.values(TABLES).flatMap((table) => Object.keys(table));
  assert.deepEqual(
    declared.filter((type, index) => declared.indexOf(type) !== index),
    [],
    "no type is declared by two mechanisms (the merged table would keep only the last)",
  );
  assert.deepEqual(
    EVENT_TYPES.filter((type, index) => EVENT_TYPES.indexOf(type) !== index),
    [],
    "EVENT_TYPES has no duplicates",
  );
  assert.deepEqual([...EVENT_TYPES].sort(), declared.sort());
});

Deno.test("every event type is named noun.verb in lower case", () => {
  for (const type of EVENT_TYPES) assert.match(type, /^[a-z]+\.[a-z]+(_[a-z]+)*$/);
});
