import type { EventTable } from "./_payload.ts";

/** A note the person saved to memory from the REPL (a line starting with `#`). */
export interface MemoryNoted {
  /** The file it was added to. */
  path: string;
  /** The note as added. */
  text: string;
}

/** Memory (s09). */
export interface MemoryEvents {
  "memory.noted": MemoryNoted;
}

/** The event types of MemoryEvents, for validation on read. */
export const MEMORY_EVENTS: EventTable<MemoryEvents> = {
  "memory.noted": true,
};
