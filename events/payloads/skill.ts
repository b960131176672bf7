import type { EventTable } from "./_payload.ts";

/** The person invoked a skill by name in the REPL (`/name args`): its body becomes the prompt. */
export interface SkillInvoked {
  name: string;
  /** What followed the name (`$ARGUMENTS`). */
  arguments: string;
  /** The SKILL.md it came from. */
  path: string;
}

/** Skills (s07). */
export interface SkillEvents {
  "skill.invoked": SkillInvoked;
}

/** The event types of SkillEvents, for validation on read. */
export const SKILL_EVENTS: EventTable<SkillEvents> = {
  "skill.invoked": true,
};
