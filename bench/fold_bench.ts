/**
 * The fold's cost per event: `deno bench -A bench/fold_bench.ts`. Folds a realistic 100k-event log
 * (testing/generate_log.ts, parsed once into memory) from the empty state: the kernel's folds
 * alone, and with every mechanism's projection as a harness and `rein state` fold them
 * (`reinProjections()`), next to a loop that only counts the events (the baseline).
 *
 * @module
 */
import type { Envelope } from "../events/event_types.ts";
import { generateEvents } from "../testing/generate_log.ts";
import { foldEvents } from "../core/state/state.ts";
import { reinProjections } from "../core/harness.ts";

const EVENTS = 100_000;
const events: Envelope[] = [];
let seq = 0;
for (const { event, ts } of generateEvents({ events: EVENTS })) {
  events.push(JSON.parse(JSON.stringify({ v: 2, seq: ++seq, ts, ...event })));
}
const projections = reinProjections();

function check(lastSeq: number): void {
  if (lastSeq !== EVENTS) throw new Error(`Folded up to seq ${lastSeq}, expected ${EVENTS}`);
}

const FOLD = { group: "fold", n: 30, warmup: 5 } as const;

Deno.bench({ ...FOLD, name: "count the events (baseline)", baseline: true }, () => {
  let last = 0;
  for (const event of events) last = event.seq;
  check(last);
});

Deno.bench({ ...FOLD, name: "kernel folds alone" }, () => {
  check(foldEvents(events).lastSeq);
});

Deno.bench({ ...FOLD, name: "kernel folds and every mechanism's projection" }, () => {
  check(foldEvents(events, projections).lastSeq);
});
