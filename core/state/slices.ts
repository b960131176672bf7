import type { Envelope } from "../../events/event_types.ts";
import type { Projection } from "./projection.ts";

/**
 * Fold one event into `slices` (by projection key): each of `projections` that declares its type
 * (`canHandle`), in their order; the others are not called. Mutates `slices`; pure otherwise.
 */
export function evolveSlices(
  slices: Record<string, unknown>,
  event: Envelope,
  projections: readonly Projection[],
): void {
  if (projections.length === 0) return;
  const handlers = handlersOf(projections).get(event.type);
  if (handlers === undefined) return;
  for (const projection of handlers) {
    slices[projection.key] = projection.evolve(slices[projection.key], event);
  }
}

/**
 * For each list of projections folded, its projections by the event type they handle: made when
 * the list is first folded, so an event finds its projections with one lookup (a list is not
 * changed once folded). Derived from the projections alone; not part of the state.
 */
const HANDLERS = new WeakMap<readonly Projection[], ReadonlyMap<string, readonly Projection[]>>();

function handlersOf(
  projections: readonly Projection[],
): ReadonlyMap<string, readonly Projection[]> {
  let table = HANDLERS.get(projections);
  if (table === undefined) {
    const made = new Map<string, Projection[]>();
    for (const projection of projections) {
      for (const type of new Set(projection.canHandle)) {
        const list = made.get(type);
        if (list === undefined) made.set(type, [projection]);
        else list.push(projection);
      }
    }
    table = made;
    HANDLERS.set(projections, table);
  }
  return table;
}
