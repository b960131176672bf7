import { openPostgresStore, type PostgresStore } from "./postgres_store.ts";
import { exportLines } from "./log_transfer.ts";
import { fixedClock } from "../../testing/events.ts";
import { testStoreContract } from "../../testing/store_contract.ts";
import {
  postgresMissing,
  startTestPostgres,
  type TestPostgres,
} from "../../testing/postgres_server.ts";

const missing = postgresMissing();
if (missing !== undefined) {
  Deno.test({ name: "PostgresStore: contract suite", ignore: true, fn: () => {} });
  console.warn(missing);
} else {
  let server: TestPostgres | undefined;
  let logs = 0;
  Deno.test({
    name: "PostgresStore: start a PostgreSQL server for the contract suite",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      server = await startTestPostgres();
    },
  });
  testStoreContract("PostgresStore", () => {
    if (server === undefined) throw new Error("No PostgreSQL server: its start failed");
    const url = server.url(`contract${++logs}`);
    const stores: PostgresStore[] = [];
    return Promise.resolve({
      async open(options) {
        const store = await openPostgresStore(url, { clock: fixedClock(), ...options });
        stores.push(store);
        return store;
      },
      async persisted() {
        let text = "";
        for await (const line of exportLines(url)) text += line;
        return text;
      },
      async [Symbol.asyncDispose]() {
        for (const store of stores) await store.close();
      },
    });
  });
  Deno.test({
    name: "PostgresStore: stop the contract suite's server",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      await server?.[Symbol.asyncDispose]();
    },
  });
}
