import assert from "node:assert/strict";
import type { PermissionMode } from "../settings/settings.ts";
import { type HookSay, judgeCall, suggestRule } from "./judge.ts";
import { loadPathMatcher } from "./path_match.ts";
import { type PermissionPolicy, permissionPolicy, type SourcedRule } from "./policy.ts";

Deno.test("the rule offered for 'don't ask again' is a prefix only where the program is not an interpreter", () => {
  const suggest = (command: string) => suggestRule({ tool: "bash", input: { command } }, "/w");
  assert.equal(suggest("npm test -- --watch"), "Bash(npm test *)");
  assert.equal(suggest("mkdir -p build"), "Bash(mkdir *)");
  assert.equal(suggest("git push origin main"), "Bash(git push *)");
  assert.equal(suggest('bash -c "rm -rf x"'), 'Bash(bash -c "rm -rf x")');
  assert.equal(suggest("node -e 1"), "Bash(node -e 1)");
  assert.equal(suggest("find . -exec rm {} ;"), "Bash(find . -exec rm {} ;)");
  assert.equal(suggest("ls && rm x"), "Bash(ls && rm x)");
  assert.equal(suggest("echo $(id)"), "Bash(echo $\\(id\\))");
  assert.equal(
    suggestRule({ tool: "edit_file", input: { path: "src/a.ts" } }, "/w"),
    "Edit(/src/a.ts)",
  );
});

const WS = "/home/alice/proj";

/** A policy with the project's settings file holding `permissions`, in `mode`. */
function policyOf(
  permissions: Record<string, unknown>,
  mode: PermissionMode = "default",
  interactive = false,
): PermissionPolicy {
  return permissionPolicy({
    sources: [{
      scope: "project",
      path: `${WS}/.claude/settings.json`,
      text: JSON.stringify({ permissions }),
    }],
    flags: { permissionMode: mode },
    home: "/home/alice",
    interactive,
  }, WS);
}

const write = (path: string) => ({ tool: "write_file", input: { path, content: "x" } });
const read = (path: string) => ({ tool: "read_file", input: { path } });
const hookAllow: HookSay = { decision: "allow", reason: "", command: "approve.sh" };
const session: SourcedRule = { tool: "write_file", file: "", text: "Write" };

await loadPathMatcher();

Deno.test("a write under .claude/ or .git/ asks whatever allow rules, hooks, session rules and acceptEdits say", () => {
  for (const mode of ["default", "acceptEdits"] as const) {
    for (
      const path of [
        ".git/config",
        ".claude/settings.json",
        "sub/.git/hooks/pre-commit",
        ".GIT/config",
      ]
    ) {
      const judged = judgeCall(
        write(path),
        policyOf({ allow: ["Write", "Edit(/**)"] }, mode),
        [session],
        hookAllow,
      );
      assert.equal(judged.decision, "ask", `${mode} ${path}`);
      assert.equal(judged.protectedPath, `${WS}/${path}`);
    }
  }
});

Deno.test("the question about .claude/ and .git/: bypassPermissions allows, plan and dontAsk deny, a deny rule denies first", () => {
  const bypass = judgeCall(write(".git/config"), policyOf({}, "bypassPermissions"));
  assert.equal(bypass.decision, "allow");
  assert.equal(bypass.protectedPath, `${WS}/.git/config`);
  assert.deepEqual(bypass.decision === "allow" && bypass.source, {
    kind: "mode",
    mode: "bypassPermissions",
  });
  for (const mode of ["plan", "dontAsk"] as const) {
    const judged = judgeCall(write(".claude/x.json"), policyOf({ allow: ["Write"] }, mode));
    assert.equal(judged.decision, "deny", mode);
    assert.equal(judged.protectedPath, `${WS}/.claude/x.json`);
  }
  const denied = judgeCall(
    write(".git/config"),
    policyOf({ deny: ["Edit(/.git/**)"] }, "bypassPermissions"),
  );
  assert.deepEqual(denied.decision === "deny" && denied.source, {
    kind: "rule",
    rule: "Edit(/.git/**)",
    file: `${WS}/.claude/settings.json`,
  });
});

Deno.test("the question about .git/ is judged on the real path and on every symbolic link on the way", () => {
  const policy = policyOf({ allow: ["Write"] }, "acceptEdits");
  const viaLink = judgeCall(write("gc"), policy, [], undefined, { realPath: `${WS}/.git/config` });
  assert.equal(viaLink.decision, "ask");
  assert.equal(viaLink.protectedPath, `${WS}/.git/config`);
  const through = judgeCall(write("a/y"), policy, [], undefined, {
    realPath: `${WS}/y`,
    via: [`${WS}/.claude/link`],
  });
  assert.equal(through.decision, "ask");
  assert.equal(through.protectedPath, `${WS}/y`);
  const plain = judgeCall(write("a/y"), policy, [], undefined, { realPath: `${WS}/b/y` });
  assert.equal(plain.decision, "allow");
  assert.equal(plain.protectedPath, undefined);
});

Deno.test("a PreToolUse hook's allow does not skip an ask rule, and weighs as an allow rule otherwise", () => {
  const asked = judgeCall(
    { tool: "bash", input: { command: "git push origin main" } },
    policyOf({ ask: ["Bash(git push *)"] }),
    [],
    hookAllow,
  );
  assert.equal(asked.decision, "ask");
  assert.match(asked.decision === "ask" ? asked.asked : "", /"Bash\(git push \*\)"/);
  const allowed = judgeCall(
    { tool: "bash", input: { command: "make" } },
    policyOf({}),
    [],
    hookAllow,
  );
  assert.deepEqual(allowed.decision === "allow" && allowed.source, {
    kind: "hook",
    command: "approve.sh",
  });
  const planned = judgeCall(
    { tool: "bash", input: { command: "make" } },
    policyOf({}, "plan"),
    [],
    hookAllow,
  );
  assert.equal(planned.decision, "deny");
});

Deno.test("rules judge a file tool on its real path: a deny or ask on either holds, an allow must hold for the real path", () => {
  const denied = judgeCall(read("x"), policyOf({ deny: ["Read(./.env)"] }), [], undefined, {
    realPath: `${WS}/.env`,
  });
  assert.equal(denied.decision, "deny");
  const deniedWrite = judgeCall(
    write("sub/x"),
    policyOf({ deny: ["Read(./.env)"], allow: ["Write"] }),
    [],
    undefined,
    {
      realPath: `${WS}/.env`,
    },
  );
  assert.equal(deniedWrite.decision, "deny");
  const escaped = judgeCall(
    write("docs/link"),
    policyOf({ allow: ["Edit(/docs/**)"] }),
    [],
    undefined,
    {
      realPath: `${WS}/src/secret.ts`,
    },
  );
  assert.equal(escaped.decision, "ask");
  const outside = judgeCall(write("out"), policyOf({}, "acceptEdits"), [], undefined, {
    realPath: "/etc/passwd",
  });
  assert.equal(outside.decision, "ask");
  const real = judgeCall(write("d"), policyOf({ allow: ["Edit(/docs/**)"] }), [], undefined, {
    realPath: `${WS}/docs/a.md`,
  });
  assert.equal(real.decision, "allow");
});
