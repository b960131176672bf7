import assert from "node:assert/strict";
import { formatDuration, jobNotification, jobStatus, jobSummary } from "./job_notification.ts";
import type { JobEnd, JobView } from "./jobs_projection.ts";

function job(end: JobEnd | null, description?: string): JobView {
  return {
    id: "b00000001",
    callId: "toolu_1",
    command: "npm test -- --watch=false\necho more",
    ...(description === undefined ? {} : { description }),
    pid: 4242,
    logPath: ".rein/jobs/b00000001.log",
    timeoutMs: 1_800_000,
    agent: "lead",
    startedSeq: 7,
    startedAt: "2026-11-22T10:00:00.000Z",
    end,
    notified: false,
  };
}

function finished(
  ending: "exited" | "timed_out" | "stopped" | "session_ended",
  exitCode: number | null,
) {
  return {
    kind: "finished" as const,
    seq: 9,
    id: "b00000001",
    ending,
    exitCode,
    ...(exitCode === null ? { signal: "SIGKILL" } : {}),
    durationMs: 2_140,
    outputBytes: 12,
    tail: "3 passed\nok",
  };
}

Deno.test("a completed job's notification has Claude Code's fields, its summary and its tail", () => {
  assert.equal(
    jobNotification(job(finished("exited", 0), "Run the <unit> tests")),
    [
      "<task-notification>",
      "<task-id>b00000001</task-id>",
      "<tool-use-id>toolu_1</tool-use-id>",
      "<output-file>.rein/jobs/b00000001.log</output-file>",
      "<status>completed</status>",
      '<summary>Background command "Run the &lt;unit&gt; tests" completed (exit code 0) in ' +
      "2.1s</summary>",
      "<output-tail>\n3 passed\nok\n</output-tail>",
      "</task-notification>",
      "Read the whole output with job_output or read_file: .rein/jobs/b00000001.log",
    ].join("\n"),
  );
});

Deno.test("failed, timed out, stopped and lost jobs say so", () => {
  assert.equal(jobStatus(job(null)), "running");
  assert.equal(jobStatus(job(finished("exited", 1))), "failed");
  assert.equal(
    jobSummary(job(finished("exited", 1))),
    'Background command "npm test -- --watch=false" failed with exit code 1 after 2.1s',
  );
  assert.equal(jobStatus(job(finished("timed_out", null))), "killed");
  assert.equal(
    jobSummary(job(finished("timed_out", null))),
    'Background command "npm test -- --watch=false" timed out after 30m and was killed',
  );
  assert.match(jobSummary(job(finished("stopped", null))), /was stopped after 2\.1s$/);
  assert.match(jobSummary(job(finished("session_ended", null))), /when its session ended$/);
  const lost = job({ kind: "lost", seq: 9, id: "b00000001", pid: 4242, logPath: "x" });
  assert.equal(jobStatus(lost), "lost");
  assert.match(jobNotification(lost), /<status>lost<\/status>/);
  assert.match(jobSummary(lost), /was lost: .*\(pid 4242\), so its outcome is unknown/);
  assert.doesNotMatch(jobNotification(lost), /output-tail|Read the whole output/);
});

Deno.test("a job whose log cut its output says how much it wrote, its cap and the bytes cut", () => {
  const cut = {
    ...finished("timed_out", null),
    outputBytes: 1_932_735_283,
    droppedBytes: 1_928_540_979,
  };
  const capped = { ...job(cut), outputMaxBytes: 4 * 1024 * 1024 };
  const text = jobNotification(capped);
  assert.match(
    text,
    /<status>killed<\/status>\n<summary>.*<\/summary>\n<output-cut>It wrote 1\.8 GiB \(1,932,735,283 bytes\) of output; its log keeps at most 4 MiB, its first and last part: 1,928,540,979 bytes were cut between them<\/output-cut>\n<output-tail>/,
  );
  assert.match(
    text,
    /Read what its log kept \(the first and last part\) with job_output or read_file: \.rein\/jobs\/b00000001\.log$/,
  );
  // Nothing cut, or a job recorded before the cap: no word of it.
  for (const end of [{ ...cut, droppedBytes: 0 }, finished("exited", 0)]) {
    assert.doesNotMatch(jobNotification({ ...job(end), outputMaxBytes: 4096 }), /output-cut|kept/);
  }
});

Deno.test("durations read as milliseconds, seconds or minutes", () => {
  assert.deepEqual(
    [850, 2_140, 60_000, 192_400, 1_800_000].map(formatDuration),
    ["850ms", "2.1s", "1m", "3m 12s", "30m"],
  );
});
