import assert from "node:assert/strict";
import type { CronRead } from "../../events/event_types.ts";
import { testJob } from "../../testing/cron_jobs.ts";
import { callContext } from "../../testing/tool_helpers.ts";
import { validateToolInput } from "../tools/schema.ts";
import { inputJsonSchema, loadToolSchema } from "../tools/schema.ts";
import type { AnyTool } from "../tools/tool.ts";
import { CANCEL_CRON_INPUT_SCHEMA, cancelJob, createCancelCronTool } from "./cancel_cron.ts";
import { createListCronsTool, LIST_CRONS_INPUT_SCHEMA, listJobs } from "./list_crons.ts";
import {
  createScheduleCronTool,
  MAX_CRON_JOBS,
  SCHEDULE_CRON_INPUT_SCHEMA,
  scheduleJob,
} from "./schedule_cron.ts";

const READ: CronRead = {
  callId: "toolu_1",
  now: "2026-11-23T10:00:30.000Z",
  timeZone: "UTC",
  jobs: [],
};

Deno.test("schedule_cron records the job with the reading's time and zone, and an id", async () => {
  const result = await scheduleJob(
    { cron: "*/5 * * * *", prompt: "check the deploy" },
    READ,
    "s1\ntoolu_1",
  );
  assert.equal(result.isError, undefined);
  const [event] = result.events ?? [];
  assert.equal(event?.type, "cron.scheduled");
  const job = event?.type === "cron.scheduled" ? event.data : undefined;
  assert.match(job?.id ?? "", /^[0-9a-f]{8}$/);
  assert.deepEqual({ ...job, id: "" }, {
    id: "",
    cron: "*/5 * * * *",
    prompt: "check the deploy",
    recurring: true,
    durable: false,
    timeZone: "UTC",
    scheduledAt: READ.now,
  });
  assert.equal(
    result.content,
    `Scheduled job ${job?.id}: "*/5 * * * *" (UTC), recurring, for this session: ` +
      '"check the deploy"; next run at 2026-11-23T10:05:00.000Z. Cancel it with cancel_cron',
  );
  const again = await scheduleJob({ cron: "* * * * *", prompt: "p" }, READ, "s1\ntoolu_1");
  const same = again.events?.[0];
  assert.equal(
    same?.type === "cron.scheduled" && same.data.id,
    job?.id,
    "the same call, the same id",
  );
});

Deno.test("an invalid expression is refused with croner's reason", async () => {
  const result = await scheduleJob({ cron: "61 * * * *", prompt: "p" }, READ, "x");
  assert.deepEqual(result, {
    content: 'Not scheduled: "61 * * * *" is not a valid cron expression: Invalid value for ' +
      "minute: 61",
    isError: true,
  });
  const fields = await scheduleJob({ cron: "* * *", prompt: "p" }, READ, "x");
  assert.match(fields.content, /^Not scheduled: "\* \* \*" has 3 fields: a cron expression/);
});

Deno.test("a one-shot time must be to come, and is never recurring", async () => {
  const past = await scheduleJob({ cron: "2026-11-23T09:00", prompt: "p" }, READ, "x");
  assert.equal(past.isError, true);
  assert.match(past.content, /has no time after now \(2026-11-23T10:00:30.000Z\): give a time/);
  const later = await scheduleJob(
    { cron: "2026-11-23T14:30", prompt: "p", recurring: true, durable: true },
    READ,
    "x",
  );
  const event = later.events?.[0];
  assert.equal(event?.type === "cron.scheduled" && event.data.recurring, false);
  assert.equal(event?.type === "cron.scheduled" && event.data.durable, true);
  assert.match(later.content, /next run at 2026-11-23T14:30:00.000Z/);
});

Deno.test("no more than 50 jobs, and a taken id is never given again", async () => {
  const full = {
    ...READ,
    jobs: Array.from({ length: MAX_CRON_JOBS }, (_, i) => testJob({ id: `j${i}` })),
  };
  const refused = await scheduleJob({ cron: "* * * * *", prompt: "p" }, full, "x");
  assert.match(refused.content, /^Not scheduled: 50 jobs are scheduled already/);
  const first = await scheduleJob({ cron: "* * * * *", prompt: "p" }, READ, "seed");
  const id = first.events?.[0]?.type === "cron.scheduled" ? first.events[0].data.id : "";
  const second = await scheduleJob(
    { cron: "* * * * *", prompt: "p" },
    { ...READ, jobs: [testJob({ id })] },
    "seed",
  );
  const other = second.events?.[0]?.type === "cron.scheduled" ? second.events[0].data.id : id;
  assert.notEqual(other, id);
});

Deno.test("list_crons lists each job with its next run", () => {
  assert.deepEqual(listJobs(READ), { content: "No cron jobs are scheduled" });
  const listed = listJobs({
    ...READ,
    jobs: [
      testJob({ id: "aaaa0001", cron: "0 * * * *" }),
      testJob({ id: "aaaa0002", durable: true, lastFired: "2026-11-23T10:00:00.000Z" }),
    ],
  });
  assert.equal(
    listed.content,
    "2 cron jobs (now 2026-11-23T10:00:30.000Z):\n" +
      '- aaaa0001: "0 * * * *" (UTC), recurring, for this session: "check the deploy"; next run ' +
      "at 2026-11-23T11:00:00.000Z\n" +
      '- aaaa0002: "* * * * *" (UTC), recurring, durable (kept for the workspace): "check the ' +
      'deploy"; next run at 2026-11-23T10:01:00.000Z; last run for 2026-11-23T10:00:00.000Z',
  );
});

Deno.test("cancel_cron cancels a job it sees and names the ones there are otherwise", () => {
  const read = { ...READ, jobs: [testJob({ id: "aaaa0001" })] };
  assert.deepEqual(cancelJob("aaaa0001", read).events, [
    { type: "cron.cancelled", data: { id: "aaaa0001" } },
  ]);
  assert.deepEqual(cancelJob("zzzz", read), {
    content: 'No cron job "zzzz". Scheduled jobs: aaaa0001',
    isError: true,
  });
  assert.deepEqual(cancelJob("zzzz", READ), {
    content: 'No cron job "zzzz": none are scheduled',
    isError: true,
  });
});

Deno.test("the cron tools refuse to run without a recorded reading", async () => {
  for (const tool of [createScheduleCronTool(), createListCronsTool(), createCancelCronTool()]) {
    const result = await tool.run(
      { cron: "* * * * *", prompt: "p", id: "x" } as never,
      callContext(),
    );
    assert.equal(result.isError, true, tool.name);
  }
});

Deno.test("the schemas the model sees are what zod gives", async () => {
  for (
    const [tool, schema] of [
      [createScheduleCronTool(), SCHEDULE_CRON_INPUT_SCHEMA],
      [createListCronsTool(), LIST_CRONS_INPUT_SCHEMA],
      [createCancelCronTool(), CANCEL_CRON_INPUT_SCHEMA],
    ] as const
  ) {
    assert.deepEqual(inputJsonSchema(await loadToolSchema(tool as AnyTool)), schema, tool.name);
  }
  const check = await validateToolInput(createScheduleCronTool(), { cron: "", prompt: 3 });
  assert.equal(check.ok, false);
});
