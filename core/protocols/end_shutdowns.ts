import type { ReinEvent } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { requestShutdown } from "./protocol_deciders.ts";
import { isLead, sessionProtocols } from "./protocols_of.ts";

/** Why the lead asks its teammates to shut down when its session ends. */
export const SESSION_END_REASON = "The lead's session is ending";

/**
 * When lead `agent`'s session ends: a shutdown request (`protocol.requested` and its mail, as
 * `request_shutdown` records them) to each teammate still live (spawned, not stopped, not
 * already asked), in spawn order, with the id `end-<n>-<name>` (`n`: how many requests the lead
 * made before, so the ids are the same when replay decides again). None for an agent
 * that is not the lead. Pure over the state: live, decided under the log's lock.
 */
export function endShutdowns(state: State, session: string, agent: string): ReinEvent[] {
  if (!isLead(state, session, agent)) return [];
  const protocols = sessionProtocols(state, session);
  // The lead's own requests only: another agent's appended meanwhile cannot change the ids.
  const asked = protocols.order.filter((id) => protocols.byId[id]?.from === agent).length;
  return Object.keys(protocols.teammates).flatMap((name) => {
    if (protocols.stopped[name]) return [];
    const caller = { session, agent, callId: `end-${asked}-${name}` };
    const result = requestShutdown(state, caller, { to: name, reason: SESSION_END_REASON });
    return result.events ?? [];
  });
}
