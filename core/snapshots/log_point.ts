import { knownEventTypes } from "../../events/parse_envelope.ts";
import { UPCASTERS } from "../../events/upcast.ts";
import {
  lineEndingAt,
  sha256Hex,
  type StartPoint,
  startPointProblem,
} from "../../events/start_point.ts";

/**
 * The start point just after event `seq`, whose line ends at byte `offset` of the log at
 * `logPath`, with the hash of that line as it is now; undefined when no line ends there.
 */
export async function startPointOf(
  logPath: string,
  seq: number,
  offset: number,
): Promise<Required<StartPoint> | undefined> {
  using file = await Deno.open(logPath, { read: true });
  const line = await lineEndingAt(file, offset);
  return line === undefined ? undefined : { seq, offset, lineHash: await sha256Hex(line) };
}

/**
 * Why `point` does not hold in the log at `logPath` now (see `startPointProblem`), or undefined
 * when it does. A missing log is a problem, not an error.
 */
export async function pointProblem(
  logPath: string,
  point: StartPoint,
  eventTypes: readonly string[] = [],
): Promise<string | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(logPath, { read: true });
  } catch (error) {
    return `cannot open the log: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const format = { upcasters: UPCASTERS, knownTypes: knownEventTypes(eventTypes) };
    return await startPointProblem(file, logPath, point, format);
  } finally {
    file.close();
  }
}

/**
 * The last place of `index` at or before event `seq` that holds in the log (its line ends there
 * and holds that seq), or undefined to read from the start.
 */
export async function indexPoint(
  logPath: string,
  index: readonly (readonly [number, number])[],
  seq: number,
): Promise<{ seq: number; offset: number } | undefined> {
  const found = index.findLast(([at]) => at <= seq);
  if (found === undefined) return undefined;
  const point = { seq: found[0], offset: found[1] };
  return await pointProblem(logPath, point) === undefined ? point : undefined;
}
