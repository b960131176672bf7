/**
 * Deno 2.9 loads Node's timers module (node:timers with async_hooks and errors: about 8 ms of
 * CPU) the first time any code reads `setTimeout`, `setInterval` or `clearTimeout`. Every model
 * request sets a timer (the SDK's own), so a start pays it on the way to its first request. Called
 * while the start waits on its files, it is paid in time the start would spend waiting anyway.
 */
export function loadTimersNow(): void {
  if (typeof globalThis.setTimeout !== "function") throw new Error("No setTimeout in this runtime");
}
