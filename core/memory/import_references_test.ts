import assert from "node:assert/strict";
import { importReferences } from "./import_references.ts";

Deno.test("imports are @paths at a line start or after a space, with their line numbers", () => {
  const text = [
    "# Project",
    "@docs/style.md",
    "See @./notes.md and @~/shared/rules.md, also @/etc/team.md.",
    "Mail me at me@example.com or ping @someone about @param.",
  ].join("\n");
  assert.deepEqual(importReferences(text), [
    { path: "docs/style.md", line: 2 },
    { path: "./notes.md", line: 3 },
    { path: "~/shared/rules.md", line: 3 },
    { path: "/etc/team.md", line: 3 },
  ]);
});

Deno.test("nothing inside code spans or fenced code blocks is an import", () => {
  const text = [
    "Use `@decorators.ts` and ``a @b.md ` c`` here, but @real.md counts.",
    "```ts",
    "@Component.md",
    "```",
    "~~~~",
    "@tilde.md",
    "```",
    "@still-inside.md",
    "~~~~",
    "@after.md",
    "An unmatched ` backtick leaves @open.md an import.",
  ].join("\n");
  assert.deepEqual(importReferences(text).map((r) => r.path), [
    "real.md",
    "after.md",
    "open.md",
  ]);
});

Deno.test("an escaped space and a fragment are read as Claude Code reads them", () => {
  assert.deepEqual(importReferences("@my\\ notes/a.md#intro\r\n"), [
    { path: "my notes/a.md", line: 1 },
  ]);
});
