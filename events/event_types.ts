/**
 * The closed union of everything rein records. Every type is a past-tense fact named
 * `noun.verb`, declared with its payload in `payloads/<mechanism>.ts` (an interface of payloads
 * and a table of its types). Adding a mechanism's events is one entry in {@link ReinPayloads} and
 * one in the table; {@link EVENT_TYPES} derives from it, and every exhaustive `switch` then fails
 * to compile until it decides about the new types.
 */
import type { EventTable } from "./payloads/_payload.ts";
import { AGENT_EVENTS, type AgentEvents } from "./payloads/agent.ts";
import { ARRIVAL_EVENTS, type ArrivalEvents } from "./payloads/arrival.ts";
import { COMPACTION_EVENTS, type CompactionEvents } from "./payloads/compaction.ts";
import { CRON_EVENTS, type CronEvents } from "./payloads/cron.ts";
import { HOOK_EVENTS, type HookEvents } from "./payloads/hook.ts";
import { JOB_EVENTS, type JobEvents } from "./payloads/job.ts";
import { MEMORY_EVENTS, type MemoryEvents } from "./payloads/memory.ts";
import { SKILL_EVENTS, type SkillEvents } from "./payloads/skill.ts";
import { TASK_EVENTS, type TaskEvents } from "./payloads/task.ts";
import { TODO_EVENTS, type TodoEvents } from "./payloads/todo.ts";
import { MODEL_EVENTS, type ModelEvents } from "./payloads/model.ts";
import { PERMISSION_EVENTS, type PermissionEvents } from "./payloads/permission.ts";
import { SESSION_EVENTS, type SessionEvents } from "./payloads/session.ts";
import { TOOL_EVENTS, type ToolEvents } from "./payloads/tool.ts";

export type * from "./payloads/agent.ts";
export type * from "./payloads/arrival.ts";
export type * from "./payloads/compaction.ts";
export type * from "./payloads/cron.ts";
export type * from "./payloads/hook.ts";
export type * from "./payloads/job.ts";
export type * from "./payloads/memory.ts";
export type * from "./payloads/skill.ts";
export type * from "./payloads/task.ts";
export type * from "./payloads/todo.ts";
export type * from "./payloads/model.ts";
export type * from "./payloads/permission.ts";
export type * from "./payloads/settings.ts";
export type * from "./payloads/session.ts";
export type * from "./payloads/tool.ts";

/**
 * The envelope/schema version this build writes. Older versions are upcast on read (v2 renamed
 * the turn counters to rounds and gave every synthetic result an `outcome`).
 */
export const CURRENT_VERSION = 2;

/** Every event type rein records and its payload: one entry per mechanism. */
export type ReinPayloads =
  & SessionEvents
  & ModelEvents
  & ToolEvents
  & PermissionEvents
  & HookEvents
  & TodoEvents
  & MemoryEvents
  & SkillEvents
  & AgentEvents
  & CronEvents
  & CompactionEvents
  & ArrivalEvents
  & JobEvents
  & TaskEvents;

/**
 * Every mechanism's table of event types, merged: one entry per mechanism. Typed by
 * {@link ReinPayloads}, so a mechanism in one but not the other does not compile.
 */
const EVENT_TABLE: EventTable<ReinPayloads> = {
  ...SESSION_EVENTS,
  ...MODEL_EVENTS,
  ...TOOL_EVENTS,
  ...PERMISSION_EVENTS,
  ...HOOK_EVENTS,
  ...TODO_EVENTS,
  ...MEMORY_EVENTS,
  ...SKILL_EVENTS,
  ...AGENT_EVENTS,
  ...CRON_EVENTS,
  ...COMPACTION_EVENTS,
  ...ARRIVAL_EVENTS,
  ...JOB_EVENTS,
  ...TASK_EVENTS,
};

/**
 * The event types the kernel's own folds (the sessions and each agent's conversation, in
 * core/state/) decide about: their switches are exhaustive over these and no other. Every other
 * type is a mechanism's, folded only by the projections that declare it (`Projection.canHandle`).
 */
export type KernelPayloads =
  & SessionEvents
  & ModelEvents
  & ToolEvents
  & AgentEvents
  & CompactionEvents
  & ArrivalEvents
  & Pick<HookEvents, "hook.context">;

/** A type of {@link KernelPayloads}. */
export type KernelEventType = keyof KernelPayloads;

/** A type folded by mechanisms' projections only (not by the kernel's folds). */
export type MechanismEventType = Exclude<EventType, KernelEventType>;

const KERNEL_EVENT_TABLE: EventTable<KernelPayloads> = {
  ...SESSION_EVENTS,
  ...MODEL_EVENTS,
  ...TOOL_EVENTS,
  ...AGENT_EVENTS,
  ...COMPACTION_EVENTS,
  ...ARRIVAL_EVENTS,
  "hook.context": true,
};

/** The kernel's event types (see {@link KernelPayloads}), for a fold to tell them apart. */
export const KERNEL_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(KERNEL_EVENT_TABLE));

/** An envelope of one of the kernel's types. */
export type KernelEnvelope = EnvelopeOf<KernelEventType>;

/** Whether the kernel's folds decide about `event` (see {@link KernelPayloads}). Pure. */
export function isKernelEvent(event: Envelope): event is KernelEnvelope {
  return KERNEL_EVENT_TYPES.has(event.type);
}

/**
 * Event types declared outside rein, by an embedder's (or a test's) own mechanism, through
 * module augmentation: `declare module "…/events/event_types.ts" { interface
 * ExtensionPayloads { "toy.counted": {...} } }`. Empty in rein itself.
 */
// deno-lint-ignore no-empty-interface
export interface ExtensionPayloads {}

/** Every event type and its payload: rein's own and any declared by extensions. */
export type EventPayloads = ReinPayloads & ExtensionPayloads;

export type EventType = keyof EventPayloads;

/** All of rein's event type names, for validation on read. Derived, never hand-kept. */
export const EVENT_TYPES: readonly (keyof ReinPayloads)[] = Object.keys(
  EVENT_TABLE,
) as (keyof ReinPayloads)[];

/** The discriminated union of event bodies: `switch (e.type)` narrows `e.data`. */
export type ReinEvent = { [T in EventType]: { type: T; data: EventPayloads[T] } }[EventType];

/** Where an event came from: the session and the agent inside it (the lead, a teammate …). */
export interface EventOrigin {
  session: string;
  agent: string;
}

/** An event as stored: one JSONL line. */
export type Envelope = ReinEvent & EventOrigin & {
  v: number;
  /** 1-based, gapless, assigned under the log lock. */
  seq: number;
  /** ISO-8601 time of the append. */
  ts: string;
};

/** An event before the store gives it a seq, version and timestamp. */
export type NewEvent = ReinEvent & EventOrigin;

/** Narrow an envelope to one type. */
export type EnvelopeOf<T extends EventType> = Envelope & { type: T };

/** An envelope of a type declared through {@link ExtensionPayloads}; `never` in rein itself. */
export type ExtensionEnvelope = {
  [T in keyof ExtensionPayloads]: { type: T; data: ExtensionPayloads[T] };
}[keyof ExtensionPayloads];

/**
 * The end of every `switch` over the event union. Its parameter admits only extension events,
 * so for rein's own types it is a `never` check: a type added to {@link EVENT_TABLE} fails to
 * compile in every switch that has not decided about it. At run time it does nothing: an
 * extension's events are folded by the extension's own projection.
 */
export function assertExhaustive(_event: ExtensionEnvelope): void {}

/** Exhaustiveness check for `switch` over a closed union. Throws if reached at runtime. */
export function assertNever(value: never): never {
  throw new TypeError(`Unexpected value: ${JSON.stringify(value)}`);
}
