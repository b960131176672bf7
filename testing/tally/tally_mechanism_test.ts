import assert from "node:assert/strict";
import { type FakeScriptFn, message, toolUse } from "../../testing/fake_anthropic.ts";
import { toolResultCount } from "../../testing/scenarios.ts";
import { startTestSession } from "../../testing/test_session.ts";
import { inputJsonSchema, loadToolSchema } from "../../core/tools/schema.ts";
import { TALLY_ADD_INPUT_SCHEMA, tallyAddTool } from "./tally_add.ts";
import { tallyMechanism } from "./tally_mechanism.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** Peeks at the session's tally with a scope the schema lacks, then with a good one. */
const peeks: FakeScriptFn = (request) => {
  switch (toolResultCount(request.body)) {
    case 0:
      return message([toolUse("toolu_bad", "tally_peek", { scope: "galaxy" })]);
    case 1:
      return message([toolUse("toolu_good", "tally_peek", { scope: "session" })]);
    default:
      return message("Peeked.");
  }
};

Deno.test("the tally is on only in sessions whose settings enable it", async () => {
  for (const enabled of [undefined, false, true]) {
    await using t = await startTestSession(peeks, {
      mechanisms: [tallyMechanism],
      recordSettings: {
        settings: enabled === undefined ? {} : { tally: { enabled } },
        flags: { permissionMode: "bypassPermissions" },
      },
    });
    await t.session.prompt("peek", run());
    const tools = t.fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
    assert.equal(tools.includes("tally_peek"), enabled === true, `${enabled}: ${tools}`);
    assert.equal(tools.includes("tally_add"), enabled === true, `${enabled}: ${tools}`);
  }
});

Deno.test("tally_peek, described by a JSON Schema alone, refuses an input naming the member and runs a good one", async () => {
  await using t = await startTestSession(peeks, {
    mechanisms: [tallyMechanism],
    recordSettings: {
      settings: { tally: { enabled: true } },
      flags: { permissionMode: "bypassPermissions" },
    },
  });
  await t.session.prompt("peek", run());
  const results = t.events().flatMap((e) =>
    e.type === "tool.completed" ? [[e.data.content, e.data.isError ?? false]] : []
  );
  assert.deepEqual(results, [
    ['Invalid input for tally_peek: "scope" must be one of "session", "workspace"', true],
    ["The session's tally is 0", false],
  ]);
});

Deno.test("tally_add's JSON Schema is what its zod schema gives", async () => {
  assert.deepEqual(inputJsonSchema(await loadToolSchema(tallyAddTool)), TALLY_ADD_INPUT_SCHEMA);
});
