import type { StageHandlers } from "./stages.ts";

/**
 * A mechanism's stage handlers with the order they must keep among the others' (a `Mechanism`
 * is one): `after` names mechanisms whose handlers must run before this one's at every stage,
 * `before` those whose handlers must run after.
 */
export interface OrderedStages {
  name: string;
  stages?: StageHandlers;
  after?: readonly string[];
  before?: readonly string[];
}

/**
 * The handlers of `entries` in the order their stages run: the order given, except that an
 * entry comes after every entry it runs `after` and before every one it runs `before` (the
 * earliest entry whose constraints are met comes next, so an order that already keeps them is
 * kept as given). A name no entry has is ignored: that mechanism is not wired. Throws on an
 * order that cannot be kept (a cycle) and on a name two entries have. Pure.
 */
export function orderStages(entries: readonly OrderedStages[]): StageHandlers[] {
  const named = (name: string): number | undefined => {
    const index = entries.findIndex((entry) => entry.name === name);
    if (index !== -1 && entries.findLastIndex((entry) => entry.name === name) !== index) {
      throw new Error(`Stage order names "${name}", which two mechanisms are named`);
    }
    return index === -1 ? undefined : index;
  };
  /** For each entry, the entries that must run before it. */
  const first = entries.map(() => new Set<number>());
  entries.forEach((entry, index) => {
    for (const name of entry.after ?? []) {
      const other = named(name);
      if (other !== undefined) first[index]?.add(other);
    }
    for (const name of entry.before ?? []) {
      const other = named(name);
      if (other !== undefined) first[other]?.add(index);
    }
  });
  const placed: number[] = [];
  const done = new Set<number>();
  while (placed.length < entries.length) {
    const next = entries.findIndex((_, index) =>
      !done.has(index) && [...first[index] ?? []].every((other) => done.has(other))
    );
    if (next === -1) {
      const stuck = entries.filter((_, index) => !done.has(index)).map((entry) => entry.name);
      throw new Error(
        `Stage order cannot be kept: "${stuck.join('", "')}" must each run after another of them`,
      );
    }
    placed.push(next);
    done.add(next);
  }
  return placed.flatMap((index) => entries[index]?.stages ?? []);
}
