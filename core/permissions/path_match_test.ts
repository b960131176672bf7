import assert from "node:assert/strict";
import { loadPathMatcher, pathRuleMatches } from "./path_match.ts";
import { CONTEXT } from "./_rules_for_test.ts";

await loadPathMatcher();

const SUB = { ...CONTEXT, cwd: "/home/alice/proj/pkg" };

const cases: [pattern: string, file: string, matches: boolean, context?: typeof SUB][] = [
  ["./.env", "/home/alice/proj/.env", true],
  ["./.env", "/home/alice/proj/sub/.env", false],
  [".env", "/home/alice/proj/sub/.env", true],
  ["*.env", "/home/alice/proj/config/prod.env", true],
  ["*.env", "/home/alice/other/prod.env", false],
  ["//etc/passwd", "/etc/passwd", true],
  ["//etc/passwd", "/home/alice/proj/etc/passwd", false],
  ["//etc/**", "/etc/ssh/sshd_config", true],
  ["~/.ssh/**", "/home/alice/.ssh/id_rsa", true],
  ["~/.ssh/**", "/home/alice/proj/.ssh/id_rsa", false],
  ["~/Documents/*.pdf", "/home/alice/Documents/a.pdf", true],
  ["~/Documents/*.pdf", "/home/alice/Documents/old/a.pdf", false],
  ["/src/**/*.ts", "/home/alice/proj/src/a.ts", true],
  ["/src/**/*.ts", "/home/alice/proj/src/deep/er/a.ts", true],
  ["/src/**/*.ts", "/home/alice/proj/src/a.js", false],
  ["/src/**/*.ts", "/home/alice/proj/lib/src/a.ts", false],
  ["/src/**/*.ts", "/home/alice/proj/src/a.ts", true, SUB],
  ["./src/**", "/home/alice/proj/src/a.ts", false, SUB],
  ["./src/**", "/home/alice/proj/pkg/src/a.ts", true, SUB],
  ["../secrets/**", "/home/alice/proj/secrets/k", true, SUB],
  ["secrets/", "/home/alice/proj/secrets/key.pem", true],
  ["secrets/", "/home/alice/proj/secrets", false],
  ["build", "/home/alice/proj/build/out/x.js", true],
  ["/docs/*.md", "/home/alice/proj/docs/a/b.md", false],
  ["~", "/home/alice/notes.txt", true],
  ["//", "/anything/at/all", true],
  ["./.env", "/home/alice/proj/.ENV", false],
  ["./x/../.env", "/home/alice/proj/.env", false],
];

for (const [pattern, file, matches, context = CONTEXT] of cases) {
  const where = context === CONTEXT ? "" : ` from ${context.cwd}`;
  Deno.test(`path rule "${pattern}" ${matches ? "covers" : "does not cover"} ${file}${where}`, () => {
    assert.equal(pathRuleMatches(pattern, file, context), matches);
  });
}
