import { join } from "node:path";
import { type JsonlStore, openJsonlStore } from "./jsonl_store.ts";
import { MemoryEventStore } from "./memory_store.ts";
import { fixedClock, tempDir } from "../testing/events.ts";
import { testStoreContract } from "../testing/store_contract.ts";

testStoreContract("JsonlStore", async () => {
  const dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const stores: JsonlStore[] = [];
  return {
    async open(options) {
      const store = await openJsonlStore(path, { clock: fixedClock(), ...options });
      stores.push(store);
      return store;
    },
    persisted: () => Deno.readTextFile(path),
    async [Symbol.asyncDispose]() {
      for (const store of stores) await store.close();
      await dir[Symbol.asyncDispose]();
    },
  };
});

testStoreContract("MemoryEventStore", () => {
  let first: MemoryEventStore | undefined;
  return Promise.resolve({
    open(options) {
      const clock = fixedClock();
      try {
        first = first?.connect({ clock, ...options }) ??
          new MemoryEventStore({ clock, ...options });
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(first);
    },
    persisted: () =>
      Promise.resolve((first?.events ?? []).map((e) => JSON.stringify(e)).join("\n")),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  });
});
