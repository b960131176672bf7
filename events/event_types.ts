/**
 * The closed union of everything rein records. Every type is a past-tense fact named
 * `noun.verb`, declared with its payload in `payloads/<mechanism>.ts` (an interface of payloads
 * and a table of its types, `EventTable`). A payload file joins rein with a line in
 * `PayloadFiles` and one in `PAYLOAD_FILES`: {@link ReinPayloads} and {@link EVENT_TYPES} derive
 * from them, and every exhaustive `switch` then fails to compile until it decides about the new
 * types.
 */
import type { EventTable } from "./payloads/_payload.ts";
import { AGENT_EVENTS, type AgentEvents } from "./payloads/agent.ts";
import { ARRIVAL_EVENTS, type ArrivalEvents } from "./payloads/arrival.ts";
import { COMPACTION_EVENTS, type CompactionEvents } from "./payloads/compaction.ts";
import type { HookEvents } from "./payloads/hook.ts";
import { MODEL_EVENTS, type ModelEvents } from "./payloads/model.ts";
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
export type * from "./payloads/command.ts";
export type * from "./payloads/task.ts";
export type * from "./payloads/todo.ts";
export type * from "./payloads/model.ts";
export type * from "./payloads/permission.ts";
export type * from "./payloads/settings.ts";
export type * from "./payloads/session.ts";
export type * from "./payloads/tool.ts";
export type * from "./payloads/team.ts";
export type * from "./payloads/protocol.ts";
export type * from "./payloads/mcp.ts";
export type * from "./payloads/question.ts";
export type * from "./payloads/host.ts";

/**
 * The envelope/schema version this build writes. Older versions are upcast on read (v2 renamed
 * the turn counters to rounds and gave every synthetic result an `outcome`).
 */
export const CURRENT_VERSION = 2;

/**
 * Every payload file of rein: its module, whose `…_EVENTS` export (an `EventTable` of its payload
 * interface) lists its types. Each file is named twice, here and in {@link PAYLOAD_FILES}, in the
 * same order (the compiler holds the two lists together): `ReinPayloads` is public, so JSR's
 * no-slow-types rule wants the type it derives from spelled out, not inferred from the imports.
 */
type PayloadFiles = [
  typeof import("./payloads/session.ts"),
  typeof import("./payloads/model.ts"),
  typeof import("./payloads/tool.ts"),
  typeof import("./payloads/permission.ts"),
  typeof import("./payloads/hook.ts"),
  typeof import("./payloads/todo.ts"),
  typeof import("./payloads/memory.ts"),
  typeof import("./payloads/skill.ts"),
  typeof import("./payloads/agent.ts"),
  typeof import("./payloads/cron.ts"),
  typeof import("./payloads/compaction.ts"),
  typeof import("./payloads/arrival.ts"),
  typeof import("./payloads/job.ts"),
  typeof import("./payloads/task.ts"),
  typeof import("./payloads/command.ts"),
  typeof import("./payloads/mail.ts"),
  typeof import("./payloads/worktree.ts"),
  typeof import("./payloads/team.ts"),
  typeof import("./payloads/protocol.ts"),
  typeof import("./payloads/mcp.ts"),
  typeof import("./payloads/question.ts"),
  typeof import("./payloads/host.ts"),
];

/**
 * The payload files, loaded at once (a payload file exports types and its table only);
 * events/event_types_test.ts checks that every file of payloads/ with a table is listed.
 */
const PAYLOAD_FILES: PayloadFiles = await Promise.all(
  [
    import("./payloads/session.ts"),
    import("./payloads/model.ts"),
    import("./payloads/tool.ts"),
    import("./payloads/permission.ts"),
    import("./payloads/hook.ts"),
    import("./payloads/todo.ts"),
    import("./payloads/memory.ts"),
    import("./payloads/skill.ts"),
    import("./payloads/agent.ts"),
    import("./payloads/cron.ts"),
    import("./payloads/compaction.ts"),
    import("./payloads/arrival.ts"),
    import("./payloads/job.ts"),
    import("./payloads/task.ts"),
    import("./payloads/command.ts"),
    import("./payloads/mail.ts"),
    import("./payloads/worktree.ts"),
    import("./payloads/team.ts"),
    import("./payloads/protocol.ts"),
    import("./payloads/mcp.ts"),
    import("./payloads/question.ts"),
    import("./payloads/host.ts"),
  ] as const,
);

/** The payload interface a module's event table is of, for each table the module exports. */
type PayloadsOfFile<F> = F extends unknown
  ? { [K in keyof F]: F[K] extends EventTable<infer P> ? P : never }[keyof F]
  : never;

/** The intersection of the members of the union `U`. */
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I
  : never;

/** Every event type rein records and its payload: every payload file's, together. */
export type ReinPayloads = Intersection<PayloadsOfFile<PayloadFiles[number]>>;

/**
 * Every payload file's table of event types, merged (a type declared twice would be kept once:
 * events/event_types_test.ts refuses that).
 */
const EVENT_TABLE = Object.assign(
  {},
  ...PAYLOAD_FILES.flatMap((file) => Object.values(file).filter(isEventTable)),
) as EventTable<ReinPayloads>;

/** Whether an export of a payload file is its table of event types (`{ "todo.updated": true }`). */
function isEventTable(value: unknown): value is Record<string, true> {
  return typeof value === "object" && value !== null &&
    Object.values(value).every((member) => member === true);
}

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
