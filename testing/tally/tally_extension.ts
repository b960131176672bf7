/**
 * The tally's events, declared to the log for as long as rein does not list them itself: through
 * `ExtensionPayloads` (see events/event_types.ts), minus what `ReinPayloads` already has. Where
 * the tally's payload file is one of rein's own (events/payloads/tally.ts, listed in
 * `PAYLOAD_FILES`), this declares nothing and rein's exhaustive switches decide about them.
 *
 * @module
 */
import type { ReinPayloads } from "../../events/event_types.ts";
import { TALLY_EVENTS, type TallyEvents } from "./tally_payloads.ts";

declare module "../../events/event_types.ts" {
  interface ExtensionPayloads extends Omit<TallyEvents, keyof ReinPayloads> {}
}

/** The tally's event types, for a log to accept them where rein does not know them. */
export const TALLY_EVENT_TYPES: readonly string[] = Object.keys(TALLY_EVENTS);
