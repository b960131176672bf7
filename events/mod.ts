/**
 * The event log: the closed event union, the store contract, the JSONL and in-memory stores,
 * the read side (a read-only reader and follower), leases, upcasting, envelope validation and
 * redaction.
 * @module
 */

export * from "./event_types.ts";
export type * from "./store.ts";
export { LogCorruptionError, LogVersionError } from "./errors.ts";
export { type RawEvent, upcast, type Upcaster, UPCASTERS, type UpcasterTable } from "./upcast.ts";
export { knownEventTypes, parseEnvelope } from "./parse_envelope.ts";
export { createRedactor, MIN_SECRET_LENGTH, REDACTED, type Redactor } from "./redact.ts";
export { JsonlStore, type JsonlStoreOptions, openJsonlStore } from "./jsonl_store.ts";
export { readEvents, readLog, type ReadLogOptions } from "./read_log.ts";
export { type LogReaderOptions, openLogReader } from "./jsonl_reader.ts";
export { followJsonlLog, type FollowOptions } from "./follow_log.ts";
export { leaseFile } from "./lease_file.ts";
export { MemoryEventStore, type MemoryStoreOptions } from "./memory_store.ts";
