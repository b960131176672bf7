import { CURRENT_VERSION, type NewEvent } from "../events/event_types.ts";

/** A clock frozen at `iso` (test helper). */
export function fixedClock(iso = "2026-11-22T10:00:00.000Z"): () => Date {
  return () => new Date(iso);
}

/** A `user.prompted` event from `agent` in session "s1" (test helper). */
export function prompt(text: string, agent = "lead"): NewEvent {
  return { type: "user.prompted", session: "s1", agent, data: { text } };
}

/** A temporary directory removed on dispose (test helper). */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "rein-events-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/**
 * One `user.prompted` envelope line as the store writes it, at version `v` (default: the current
 * one), for hand-made logs (test helper).
 */
export function line(
  seq: number,
  data: Record<string, unknown> = { text: `p${seq}` },
  v: number = CURRENT_VERSION,
): string {
  return JSON.stringify({
    v,
    seq,
    ts: "2026-11-22T10:00:00.000Z",
    type: "user.prompted",
    session: "s1",
    agent: "lead",
    data,
  });
}

/** The error `promise` rejects with; fails when it resolves (test helper). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected a rejection, but the promise resolved");
}
