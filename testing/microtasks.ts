/**
 * Let every queued microtask run, and no I/O: what a store started stays under way (its read is
 * not back yet where it reads asynchronously), what needs no I/O has run.
 */
export async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
