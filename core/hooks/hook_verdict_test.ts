import assert from "node:assert/strict";
import type { HookEventName } from "./hook_input.ts";
import {
  combineVerdicts,
  emptyVerdict,
  type HookVerdict,
  interpretHookRun,
} from "./hook_verdict.ts";
import type { HookRun } from "./run_hook_command.ts";

function exited(exitCode: number, stdout = "", stderr = ""): HookRun {
  return { exitCode, stdout, stderr, durationMs: 5, ending: "exited" };
}

function verdict(fields: Partial<HookVerdict>): HookVerdict {
  return { ...emptyVerdict(), ...fields };
}

const json = (value: unknown) => JSON.stringify(value);

const cases: [name: string, event: HookEventName, run: HookRun, expected: HookVerdict][] = [
  ["exit 0 without output decides nothing", "PreToolUse", exited(0), emptyVerdict()],
  [
    "plain stdout is context for UserPromptSubmit",
    "UserPromptSubmit",
    exited(0, "Today is Monday\n"),
    verdict({ additionalContext: ["Today is Monday"] }),
  ],
  [
    "plain stdout is context for SessionStart",
    "SessionStart",
    exited(0, "branch: main"),
    verdict({ additionalContext: ["branch: main"] }),
  ],
  ["plain stdout of PreToolUse is ignored", "PreToolUse", exited(0, "ok"), emptyVerdict()],
  ["plain stdout of Stop is ignored", "Stop", exited(0, "ok"), emptyVerdict()],
  [
    "exit 2 denies a PreToolUse call with stderr for the model",
    "PreToolUse",
    exited(2, json({ decision: "approve" }), "rm is not allowed\n"),
    verdict({ permission: { decision: "deny", reason: "rm is not allowed" } }),
  ],
  [
    "exit 2 blocks a prompt",
    "UserPromptSubmit",
    exited(2, "", "No secrets"),
    verdict({ block: { reason: "No secrets" } }),
  ],
  [
    "exit 2 makes Stop go on with stderr",
    "Stop",
    exited(2, "", "Run the tests first"),
    verdict({ block: { reason: "Run the tests first" } }),
  ],
  [
    "exit 2 after a tool gives stderr to the model",
    "PostToolUse",
    exited(2, "", "Lint failed"),
    verdict({ block: { reason: "Lint failed" } }),
  ],
  [
    "exit 2 after a failed tool gives stderr to the model",
    "PostToolUseFailure",
    exited(2, "", "Try --force"),
    verdict({ block: { reason: "Try --force" } }),
  ],
  [
    "exit 2 cannot block SessionStart: the user sees stderr",
    "SessionStart",
    exited(2, "", "nope"),
    verdict({ userMessages: ["SessionStart hook exited with code 2: nope"] }),
  ],
  [
    "exit 2 without stderr still blocks, with a stand-in reason",
    "PreToolUse",
    exited(2),
    verdict({
      permission: {
        decision: "deny",
        reason: "Blocked by PreToolUse hook (exit code 2, no message)",
      },
    }),
  ],
  [
    "another exit code is an error for the user and decides nothing",
    "PreToolUse",
    exited(1, json({ hookSpecificOutput: { permissionDecision: "deny" } }), "boom\n"),
    verdict({ userMessages: ["PreToolUse hook failed with exit code 1: boom"] }),
  ],
  [
    "a timeout decides nothing",
    "PreToolUse",
    { exitCode: null, stdout: "{", stderr: "", durationMs: 1000, ending: "timed_out" },
    verdict({ userMessages: ["PreToolUse hook timed out after 1.0 s and was killed"] }),
  ],
  [
    "a cancelled run decides nothing",
    "Stop",
    { exitCode: null, stdout: "", stderr: "", durationMs: 3, ending: "cancelled" },
    verdict({ userMessages: ["Stop hook was cancelled"] }),
  ],
  [
    "a hook that cannot start decides nothing",
    "Stop",
    { exitCode: null, stdout: "", stderr: "No such dir", durationMs: 0, ending: "failed_to_start" },
    verdict({ userMessages: ["Stop hook could not start: No such dir"] }),
  ],
  [
    "malformed JSON is an error for the user and decides nothing",
    "UserPromptSubmit",
    exited(0, '{"continue": fals'),
    verdict({
      userMessages: [
        "UserPromptSubmit hook wrote output that is not valid JSON: " +
        errorOf(() => JSON.parse('{"continue": fals')),
      ],
    }),
  ],
  [
    "continue: false stops with stopReason",
    "PostToolUse",
    exited(0, json({ continue: false, stopReason: "Build broke" })),
    verdict({ stop: { reason: "Build broke" } }),
  ],
  [
    "systemMessage and suppressOutput",
    "SessionEnd",
    exited(0, json({ systemMessage: "Saved the log", suppressOutput: true })),
    verdict({ userMessages: ["Saved the log"], suppressOutput: true }),
  ],
  [
    'decision "block" blocks a prompt with its reason',
    "UserPromptSubmit",
    exited(0, json({ decision: "block", reason: "Contains a key" })),
    verdict({ block: { reason: "Contains a key" } }),
  ],
  [
    'decision "block" makes Stop go on',
    "Stop",
    exited(0, json({ decision: "block", reason: "Tests fail" })),
    verdict({ block: { reason: "Tests fail" } }),
  ],
  [
    'decision "block" after a tool gives the reason to the model',
    "PostToolUse",
    exited(0, json({ decision: "block", reason: "Format the file" })),
    verdict({ block: { reason: "Format the file" } }),
  ],
  [
    'decision "block" means nothing to SessionStart',
    "SessionStart",
    exited(0, json({ decision: "block", reason: "x" })),
    emptyVerdict(),
  ],
  [
    'legacy decision "approve" allows a PreToolUse call',
    "PreToolUse",
    exited(0, json({ decision: "approve", reason: "Safe" })),
    verdict({ permission: { decision: "allow", reason: "Safe" } }),
  ],
  [
    'legacy decision "block" denies a PreToolUse call',
    "PreToolUse",
    exited(0, json({ decision: "block", reason: "Unsafe" })),
    verdict({ permission: { decision: "deny", reason: "Unsafe" } }),
  ],
  [
    "permissionDecision with reason, updatedInput and context",
    "PreToolUse",
    exited(
      0,
      json({
        decision: "approve",
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "ask",
          permissionDecisionReason: "Touches prod",
          updatedInput: { command: "ls -la" },
          additionalContext: "Prod is at /srv",
        },
      }),
    ),
    verdict({
      permission: { decision: "ask", reason: "Touches prod" },
      updatedInput: { command: "ls -la" },
      additionalContext: ["Prod is at /srv"],
    }),
  ],
  [
    "additionalContext of a SessionStart hook",
    "SessionStart",
    exited(0, json({ hookSpecificOutput: { additionalContext: "Use pnpm" } })),
    verdict({ additionalContext: ["Use pnpm"] }),
  ],
  [
    "hookSpecificOutput for another event is ignored, with a message",
    "PostToolUse",
    exited(
      0,
      json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "x" } }),
    ),
    verdict({
      userMessages: [
        'PostToolUse hook wrote hookSpecificOutput for "PreToolUse", so rein ignored it',
      ],
    }),
  ],
  [
    "permissionDecision and updatedInput mean nothing after the tool",
    "PostToolUse",
    exited(0, json({ hookSpecificOutput: { permissionDecision: "deny", updatedInput: {} } })),
    emptyVerdict(),
  ],
  [
    "fields of the wrong type are reported and skipped",
    "PreToolUse",
    exited(
      0,
      json({
        continue: "no",
        decision: "maybe",
        hookSpecificOutput: { permissionDecision: "yes", updatedInput: "ls" },
      }),
    ),
    verdict({
      userMessages: [
        'PreToolUse hook wrote continue = "no", ignored: expected a boolean',
        'PreToolUse hook wrote decision = "maybe", ignored: expected "approve" or "block"',
        'PreToolUse hook wrote hookSpecificOutput.permissionDecision = "yes", ignored: ' +
        'expected "allow" or "deny" or "ask"',
        'PreToolUse hook wrote hookSpecificOutput.updatedInput = "ls", ignored: expected an object',
      ],
    }),
  ],
];

for (const [name, event, run, expected] of cases) {
  Deno.test(`interpretHookRun: ${name}`, () => {
    assert.deepEqual(interpretHookRun(event, run), expected);
  });
}

Deno.test("interpretHookRun names the command of a run record in its messages", () => {
  const run = { ...exited(1, "", "oops"), command: "./check.sh --all" };
  assert.deepEqual(interpretHookRun("Stop", run).userMessages, [
    'Stop hook "./check.sh --all" failed with exit code 1: oops',
  ]);
});

const combineCases: [name: string, verdicts: HookVerdict[], expected: HookVerdict][] = [
  ["no hooks decide nothing", [], emptyVerdict()],
  [
    "deny beats ask beats allow, with the reasons of the deciding hooks",
    [
      verdict({ permission: { decision: "allow", reason: "a" } }),
      verdict({ permission: { decision: "deny", reason: "d1" } }),
      verdict({ permission: { decision: "ask", reason: "k" } }),
      verdict({ permission: { decision: "deny", reason: "d2" } }),
    ],
    verdict({ permission: { decision: "deny", reason: "d1\nd2" } }),
  ],
  [
    "ask beats allow",
    [
      verdict({ permission: { decision: "allow", reason: "" } }),
      verdict({ permission: { decision: "ask", reason: "Check" } }),
    ],
    verdict({ permission: { decision: "ask", reason: "Check" } }),
  ],
  [
    "any block blocks, reasons joined",
    [verdict({ block: { reason: "x" } }), emptyVerdict(), verdict({ block: { reason: "y" } })],
    verdict({ block: { reason: "x\ny" } }),
  ],
  [
    "any continue: false stops",
    [emptyVerdict(), verdict({ stop: { reason: "Halt" } })],
    verdict({ stop: { reason: "Halt" } }),
  ],
  [
    "contexts and messages keep hook order; suppressOutput if any",
    [
      verdict({ additionalContext: ["one"], userMessages: ["m1"] }),
      verdict({ additionalContext: ["two"], suppressOutput: true }),
      verdict({ userMessages: ["m2"] }),
    ],
    verdict({
      additionalContext: ["one", "two"],
      userMessages: ["m1", "m2"],
      suppressOutput: true,
    }),
  ],
  [
    "updatedInput: the last one from a hook that did not deny",
    [
      verdict({ permission: { decision: "allow", reason: "" }, updatedInput: { command: "a" } }),
      verdict({ updatedInput: { command: "b" } }),
      verdict({ permission: { decision: "ask", reason: "" } }),
    ],
    verdict({ permission: { decision: "ask", reason: "" }, updatedInput: { command: "b" } }),
  ],
  [
    "no updatedInput when the call is denied",
    [
      verdict({ permission: { decision: "allow", reason: "" }, updatedInput: { command: "a" } }),
      verdict({ permission: { decision: "deny", reason: "no" }, updatedInput: { command: "b" } }),
    ],
    verdict({ permission: { decision: "deny", reason: "no" } }),
  ],
];

for (const [name, verdicts, expected] of combineCases) {
  Deno.test(`combineVerdicts: ${name}`, () => {
    assert.deepEqual(combineVerdicts(verdicts), expected);
  });
}

Deno.test("combineVerdicts keeps a deny from exit 2 over a JSON allow of another hook", () => {
  const verdicts = [
    interpretHookRun("PreToolUse", exited(0, json({ decision: "approve" }))),
    interpretHookRun("PreToolUse", exited(2, "", "Blocked")),
  ];
  assert.deepEqual(combineVerdicts(verdicts).permission, { decision: "deny", reason: "Blocked" });
});

function errorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

Deno.test("interpretHookRun: a Stop or SubagentStop hook's additionalContext is context for the model", () => {
  for (const event of ["Stop", "SubagentStop"] as const) {
    const out = json({ hookSpecificOutput: { hookEventName: event, additionalContext: "Go on" } });
    assert.deepEqual(
      interpretHookRun(event, exited(0, out)),
      verdict({ additionalContext: ["Go on"] }),
    );
  }
});

Deno.test("interpretHookRun: a PermissionRequest hook's decision answers in the person's place; exit 2 denies", () => {
  const answer = (decision: unknown) =>
    exited(0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }));
  assert.deepEqual(
    interpretHookRun("PermissionRequest", answer({ behavior: "allow" })),
    verdict({ permission: { decision: "allow", reason: "" } }),
  );
  assert.deepEqual(
    interpretHookRun("PermissionRequest", answer({ behavior: "deny", message: "No" })),
    verdict({ permission: { decision: "deny", reason: "No" } }),
  );
  assert.deepEqual(
    interpretHookRun("PermissionRequest", exited(2, "", "never")),
    verdict({ permission: { decision: "deny", reason: "never" } }),
  );
});

Deno.test("interpretHookRun: a PermissionRequest allow carries updatedInput and updatedPermissions; a deny may interrupt", () => {
  const answer = (decision: unknown) =>
    exited(0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }));
  assert.deepEqual(
    interpretHookRun(
      "PermissionRequest",
      answer({
        behavior: "allow",
        updatedInput: { command: "ls" },
        updatedPermissions: [
          {
            type: "addRules",
            rules: [{ toolName: "Bash", ruleContent: "npm test:*" }, { toolName: "Read" }],
            behavior: "allow",
            destination: "session",
          },
          { type: "setMode", mode: "acceptEdits", destination: "session" },
        ],
      }),
    ),
    verdict({
      permission: { decision: "allow", reason: "" },
      updatedInput: { command: "ls" },
      updatedPermissions: [
        {
          type: "addRules",
          rules: ["Bash(npm test:*)", "Read"],
          behavior: "allow",
          destination: "session",
        },
        { type: "setMode", mode: "acceptEdits", destination: "session" },
      ],
    }),
  );
  const odd = interpretHookRun(
    "PermissionRequest",
    answer({ behavior: "allow", updatedPermissions: [{ type: "addDirectories" }] }),
  );
  assert.equal(odd.updatedPermissions, undefined);
  assert.match(odd.userMessages[0] ?? "", /updatedPermissions entry rein does not apply/);
  assert.deepEqual(
    interpretHookRun("PermissionRequest", answer({ behavior: "deny", interrupt: true })),
    verdict({ permission: { decision: "deny", reason: "" }, interrupt: true }),
  );
  // A deny drops what an allow of another hook would have changed.
  const combined = combineVerdicts([
    verdict({ permission: { decision: "allow", reason: "" }, updatedInput: { command: "x" } }),
    verdict({ permission: { decision: "deny", reason: "no" } }),
  ]);
  assert.equal(combined.updatedInput, undefined);
  assert.equal(combined.updatedPermissions, undefined);
});
