/**
 * A mechanism's table of event types: every type of its payload interface `P`, listed once. The
 * type makes a missing or an unknown entry a compile error; at run time the keys are the list of
 * known types.
 */
export type EventTable<P> = { readonly [K in keyof P]: true };
