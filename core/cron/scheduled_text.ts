import type { CronFired } from "../../events/event_types.ts";

/**
 * What the agent reads when a job fires: `[Scheduled] <prompt>`, or, for a late firing,
 * `[Scheduled, late: due <minute>] <prompt>` (with how many earlier times were missed), so the
 * model knows a reminder comes after its time. Pure.
 */
export function scheduledText(firing: Pick<CronFired, "prompt" | "late" | "minute" | "missed">) {
  if (!firing.late) return `[Scheduled] ${firing.prompt}`;
  const missed = firing.missed === 0
    ? ""
    : `, ${firing.missed} earlier time${firing.missed === 1 ? "" : "s"} missed`;
  return `[Scheduled, late: due ${firing.minute}${missed}] ${firing.prompt}`;
}
