/**
 * Helpers of the team's end-to-end tests (tests/team_*_test.ts) and bench (bench/team_bench.ts):
 * reading a log other processes are appending to, waiting for what it should come to hold,
 * routing the fake model per agent, and looking at processes in /proc. Private to tests/ and
 * bench/.
 *
 * @module
 */
import { lastMessageText } from "../testing/scenarios.ts";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import type { RecordedRequest } from "../testing/fake_anthropic.ts";

/** The events of `type` in `events`, in order. */
export function eventsOf<T extends EventType>(
  events: readonly Envelope[],
  type: T,
): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

/** The events of the JSONL log at `log` as they are now: whole lines only (another may write). */
export async function readLog(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").slice(0, -1).map((line) => JSON.parse(line));
}

/**
 * Wait until the log at `log` holds what `found` picks, and return it: looked at every 20 ms, for
 * 60 s at most; `alive` (when given) false first means the run it waits on has ended.
 */
export async function untilLogged<T>(
  log: string,
  what: string,
  found: (events: Envelope[]) => T | undefined,
  alive?: () => boolean,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const events = await readLog(log);
    const result = found(events);
    if (result !== undefined) return result;
    if (alive !== undefined && !alive()) throw new Error(`The run ended before ${what}`);
    if (Date.now() > deadline) {
      const seen = events.map((e) => `${e.seq} ${e.agent} ${e.type}`).join("\n");
      throw new Error(`Timed out waiting for ${what}:\n${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The mail in a request's last message: each `<teammate-message>` block's sender and text. */
export function mailIn(request: RecordedRequest): { from: string; text: string }[] {
  const blocks = lastMessageText(request).matchAll(
    /<teammate-message teammate_id="([^"]*)"[^>]*>([^]*?)<\/teammate-message>/g,
  );
  return [...blocks].map((match) => ({ from: match[1] ?? "", text: match[2] ?? "" }));
}

/** Whether process `pid` runs (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Wait up to `ms` for process `pid` to end; whether it did. */
export async function ended(pid: number, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

/** The pids of every teammate process the log says was started (`agent.started`). */
export function teammatePids(events: readonly Envelope[]): number[] {
  return eventsOf(events, "agent.started").map((e) => e.data.process.pid);
}

/** The environment of a team run against the fake model at `url`. */
export function teamEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "sk-test",
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
    ...extra,
  };
}
