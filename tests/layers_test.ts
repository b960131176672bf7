import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import {
  importCycles,
  kernelCycles,
  layerViolations,
  mechanismFolderProblems,
} from "./check_layers.ts";

Deno.test("no module imports against the layer order events ← core ← cli", async () => {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  assert.deepEqual(await layerViolations(root), []);
});

Deno.test("no production module is part of an import cycle", async () => {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  assert.deepEqual(await importCycles(root), []);
});

Deno.test("the cycle check names a cycle of imports, a type import and a self import included", async () => {
  const root = await Deno.makeTempDir();
  const files: Record<string, string> = {
    "core/loop/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
    "core/loop/b.ts": 'import type { C } from "../tools/c.ts";\nexport const b = 1;\n',
    "core/tools/c.ts": 'import { a } from "../loop/a.ts";\nexport type C = typeof a;\n',
    "core/tools/d.ts": 'export { a } from "../loop/a.ts";\n',
    "cli/self.ts": 'import "./self.ts";\n',
    // Tests may import in a circle; only production code is checked.
    "core/loop/a_test.ts": 'import "./a_test.ts";\n',
  };
  try {
    for (const [file, text] of Object.entries(files)) {
      await Deno.mkdir(dirname(join(root, file)), { recursive: true });
      await Deno.writeTextFile(join(root, file), text);
    }
    assert.deepEqual(await importCycles(root), [
      "import cycle: cli/self.ts → cli/self.ts",
      "import cycle: core/loop/a.ts → core/loop/b.ts → core/tools/c.ts → core/loop/a.ts " +
      "(3 files in the cycle)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("no kernel folder of core/ depends on one that depends back on it", async () => {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  assert.deepEqual(await kernelCycles(root), []);
});

Deno.test("the kernel check names folders of the kernel that import each other, with the imports that do it", async () => {
  const root = await Deno.makeTempDir();
  const files: Record<string, string> = {
    // No cycle of files, but loop and tools each import the other (as tools/executor.ts once
    // imported the loop's event types).
    "core/loop/run.ts":
      'import { execute } from "../tools/execute.ts";\nexport const run = execute;\n',
    "core/loop/events.ts": "export const OWNED = new Set<string>();\n",
    "core/tools/execute.ts":
      'import type { OWNED } from "../loop/events.ts";\nexport const execute = 1;\n',
    "core/tools/pool.ts": 'import { run } from "../loop/run.ts";\nexport const pool = run;\n',
    // Mechanism folders are not kernel units: todos and tools importing each other is left to
    // the ranks.
    "core/todos/todo.ts": 'import "../tools/execute.ts";\n',
    "core/loop/loop_test.ts": 'import "../tools/execute_test.ts";\n',
    "core/tools/execute_test.ts": 'import "../loop/loop_test.ts";\n',
  };
  try {
    for (const [file, text] of Object.entries(files)) {
      await Deno.mkdir(dirname(join(root, file)), { recursive: true });
      await Deno.writeTextFile(join(root, file), text);
    }
    assert.deepEqual(await importCycles(root), []);
    assert.deepEqual(await kernelCycles(root), [
      "import cycle between kernel units: core/loop/ → core/tools/ → core/loop/ " +
      "(core/loop/run.ts → core/tools/execute.ts; core/tools/execute.ts → core/loop/events.ts)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("each mechanism folder of core/ has a mod.ts and a README.md", async () => {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  assert.deepEqual(await mechanismFolderProblems(root), []);
});

Deno.test("the folder check names a mechanism folder without its mod.ts or README.md", async () => {
  const root = await Deno.makeTempDir();
  const files: Record<string, string> = {
    "core/bell/bell_mechanism.ts": "export function bellMechanism(): Mechanism {\n  return x;\n}\n",
    "core/gong/gong.ts": "export const gongMechanism: Mechanism = { name: 'gong' };\n",
    "core/gong/mod.ts": 'export * from "./gong.ts";\n',
    "core/whole/whole_mechanism.ts": "export const wholeMechanism: Mechanism = x;\n",
    "core/whole/mod.ts": "",
    "core/whole/README.md": "# whole\n",
    // Only tests build one here: not a mechanism folder.
    "core/helpers/helpers_test.ts": "const m: Mechanism = x;\n",
    "core/plain/plain.ts": "export const plain = 1;\n",
  };
  try {
    for (const [file, text] of Object.entries(files)) {
      await Deno.mkdir(dirname(join(root, file)), { recursive: true });
      await Deno.writeTextFile(join(root, file), text);
    }
    assert.deepEqual(await mechanismFolderProblems(root), [
      "core/bell/: lacks README.md",
      "core/bell/: lacks mod.ts",
      "core/gong/: lacks README.md",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The violations in a temp tree of files, each given as its text or as the paths it imports. */
async function violationsIn(files: Record<string, string | string[]>): Promise<string[]> {
  const root = await Deno.makeTempDir();
  try {
    for (const [file, content] of Object.entries(files)) {
      const path = join(root, file);
      await Deno.mkdir(dirname(path), { recursive: true });
      const text = typeof content === "string" ? content : content.map((target) => {
        const specifier = relative(dirname(path), join(root, target));
        return `import { x } from "${specifier.startsWith(".") ? "" : "./"}${specifier}";\n`;
      }).join("");
      await Deno.writeTextFile(path, `${text}export const x = 1;\n`);
    }
    return await layerViolations(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("the layer check reports an import from core into cli", async () => {
  assert.deepEqual(await violationsIn({ "core/loop/loop.ts": ["cli/ui.ts"], "cli/ui.ts": [] }), [
    "core/loop/loop.ts: imports cli/ui.ts (core/ must not depend on cli/)",
  ]);
});

Deno.test("layers: events ← core ← cli, each may import its own layer or a lower one", async () => {
  assert.deepEqual(
    await violationsIn({
      "events/store.ts": ["events/log.ts", "core/state/state.ts", "cli/main.ts"],
      "core/state/state.ts": ["events/store.ts", "cli/main.ts"],
      "cli/main.ts": ["events/store.ts", "core/state/state.ts", "cli/render/style.ts"],
    }),
    [
      "core/state/state.ts: imports cli/main.ts (core/ must not depend on cli/)",
      "events/store.ts: imports cli/main.ts (events/ must not depend on cli/)",
      "events/store.ts: imports core/state/state.ts (events/ must not depend on core/)",
    ],
  );
});

Deno.test("layers: production code must not import testing/, tests/ or bench/", async () => {
  assert.deepEqual(
    await violationsIn({
      "events/store.ts": ["testing/events.ts"],
      "core/loop/loop.ts": ["tests/_cli.ts"],
      "cli/main.ts": ["bench/log_bench.ts", "testing/fake.ts"],
    }),
    [
      "cli/main.ts: imports bench/log_bench.ts (production code must not depend on bench/)",
      "cli/main.ts: imports testing/fake.ts (production code must not depend on testing/)",
      "core/loop/loop.ts: imports tests/_cli.ts (production code must not depend on tests/)",
      "events/store.ts: imports testing/events.ts (production code must not depend on testing/)",
    ],
  );
});

Deno.test("layers: _test.ts files may import testing/ and otherwise follow their layer", async () => {
  assert.deepEqual(
    await violationsIn({
      "events/store_test.ts": ["testing/events.ts", "events/store.ts", "core/state/state.ts"],
      "cli/main_test.ts": ["testing/fake.ts", "cli/main.ts", "tests/_cli.ts", "bench/b.ts"],
    }),
    [
      "cli/main_test.ts: imports bench/b.ts (cli/ test files must not depend on bench/)",
      "cli/main_test.ts: imports tests/_cli.ts (cli/ test files must not depend on tests/)",
      "events/store_test.ts: imports core/state/state.ts (events/ must not depend on core/)",
    ],
  );
});

Deno.test("layers: testing/ may import events/, core/, cli/, testing/ but not tests/ or bench/", async () => {
  assert.deepEqual(
    await violationsIn({
      "testing/session.ts": [
        "events/store.ts",
        "core/loop/loop.ts",
        "cli/main.ts",
        "testing/fake.ts",
        "tests/_cli.ts",
        "bench/b.ts",
      ],
      "testing/fake_test.ts": ["testing/fake.ts", "tests/_cli.ts"],
    }),
    [
      "testing/fake_test.ts: imports tests/_cli.ts (testing/ must not depend on tests/)",
      "testing/session.ts: imports bench/b.ts (testing/ must not depend on bench/)",
      "testing/session.ts: imports tests/_cli.ts (testing/ must not depend on tests/)",
    ],
  );
});

Deno.test("layers: only tests/ may import tests/; bench/ may import anything else", async () => {
  assert.deepEqual(
    await violationsIn({
      "tests/cli_test.ts": ["tests/_cli.ts", "testing/fake.ts", "bench/b.ts", "core/loop/l.ts"],
      "bench/b.ts": ["events/store.ts", "core/loop/l.ts", "cli/main.ts", "testing/fake.ts"],
      "bench/c.ts": ["bench/b.ts", "tests/_cli.ts"],
      "scripts/tool.ts": ["tests/_cli.ts", "cli/main.ts"],
    }),
    [
      "bench/c.ts: imports tests/_cli.ts (bench/ must not depend on tests/)",
      "scripts/tool.ts: imports tests/_cli.ts (scripts/ must not depend on tests/)",
    ],
  );
});

Deno.test("layers: top-level files are production code at the cli level", async () => {
  assert.deepEqual(
    await violationsIn({
      "mod.ts": ["events/mod.ts", "core/mod.ts", "cli/main.ts", "testing/fake.ts", "tests/_cli.ts"],
      "core/loop/loop.ts": ["mod.ts"],
    }),
    [
      "core/loop/loop.ts: imports mod.ts (core/ must not depend on top-level mod.ts)",
      "mod.ts: imports testing/fake.ts (production code must not depend on testing/)",
      "mod.ts: imports tests/_cli.ts (production code must not depend on tests/)",
    ],
  );
});

Deno.test("core ranks: effects import only events/ and core/effects/", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/effects/model.ts": [
        "events/store.ts",
        "core/effects/sleep.ts",
        "core/tasks/projection.ts",
        "core/state/state.ts",
        "core/request/body.ts",
      ],
    }),
    [
      "core/effects/model.ts: imports core/request/body.ts" +
      " (core/effects/ (effects) must not depend on core/request/ (kernel))",
      "core/effects/model.ts: imports core/state/state.ts" +
      " (core/effects/ (effects) must not depend on core/state/ (state))",
      "core/effects/model.ts: imports core/tasks/projection.ts" +
      " (core/effects/ (effects) must not depend on core/tasks/projection.ts (projection))",
    ],
  );
});

Deno.test("core ranks: projections import only events/ and projections of their folder", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/tasks/projection.ts": [
        "events/store.ts",
        "core/tasks/board_projection.ts",
        "core/tasks/board.ts",
        "core/teams/projection.ts",
        "core/effects/sleep.ts",
      ],
      "core/tasks/board_projection.ts": ["core/tasks/projection.ts", "core/state/state.ts"],
    }),
    [
      "core/tasks/board_projection.ts: imports core/state/state.ts" +
      " (core/tasks/board_projection.ts (projection) must not depend on core/state/ (state))",
      "core/tasks/projection.ts: imports core/effects/sleep.ts" +
      " (core/tasks/projection.ts (projection) must not depend on core/effects/ (effects))",
      "core/tasks/projection.ts: imports core/tasks/board.ts" +
      " (core/tasks/projection.ts (projection) must not depend on core/tasks/ (mechanism))",
      "core/tasks/projection.ts: imports core/teams/projection.ts" +
      " (core/tasks/projection.ts (projection) must not depend on" +
      " core/teams/projection.ts (projection))",
    ],
  );
});

Deno.test("core ranks: state imports effects, projections and state", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/state/state.ts": [
        "events/store.ts",
        "core/effects/sleep.ts",
        "core/tasks/projection.ts",
        "core/teams/roster_projection.ts",
        "core/state/conversation.ts",
        "core/loop/loop.ts",
        "core/tasks/board.ts",
      ],
    }),
    [
      "core/state/state.ts: imports core/loop/loop.ts" +
      " (core/state/ (state) must not depend on core/loop/ (kernel))",
      "core/state/state.ts: imports core/tasks/board.ts" +
      " (core/state/ (state) must not depend on core/tasks/ (mechanism))",
    ],
  );
});

Deno.test("core ranks: the kernel imports ranks up to the kernel", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/loop/loop.ts": [
        "core/effects/sleep.ts",
        "core/tasks/projection.ts",
        "core/state/state.ts",
        "core/request/body.ts",
        "core/tools/mod.ts",
        "core/settings/settings.ts",
        "core/mechanism.ts",
        "core/tasks/board.ts",
        "core/runner/run.ts",
      ],
      "core/mechanism.ts": ["core/state/state.ts", "core/harness.ts"],
      "core/settings/settings.ts": ["core/loop/loop.ts"],
    }),
    [
      "core/loop/loop.ts: imports core/runner/run.ts" +
      " (core/loop/ (kernel) must not depend on core/runner/ (top))",
      "core/loop/loop.ts: imports core/tasks/board.ts" +
      " (core/loop/ (kernel) must not depend on core/tasks/ (mechanism))",
      "core/mechanism.ts: imports core/harness.ts" +
      " (core/mechanism.ts (kernel) must not depend on core/harness.ts (top))",
    ],
  );
});

Deno.test("core ranks: mechanisms import the kernel, their folder and the allowed pairs", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/tasks/board.ts": [
        "core/effects/sleep.ts",
        "core/state/state.ts",
        "core/loop/loop.ts",
        "core/mechanism.ts",
        "core/tasks/projection.ts",
        "core/tasks/store.ts",
        "core/teams/projection.ts",
        "core/teams/roster.ts",
        "core/replay/replay.ts",
      ],
      "core/protocols/p.ts": ["core/teams/roster.ts", "core/tasks/board.ts"],
      "core/autonomy/a.ts": ["core/teams/roster.ts", "core/tasks/board.ts"],
      "core/worktrees/w.ts": ["core/tasks/board.ts", "core/teams/roster.ts"],
      "core/subagents/s.ts": ["core/loop/loop.ts", "core/hooks/h.ts"],
    }),
    [
      "core/protocols/p.ts: imports core/tasks/board.ts" +
      " (core/protocols/ (mechanism) must not depend on core/tasks/ (mechanism))",
      "core/subagents/s.ts: imports core/hooks/h.ts" +
      " (core/subagents/ (mechanism) must not depend on core/hooks/ (mechanism))",
      "core/tasks/board.ts: imports core/replay/replay.ts" +
      " (core/tasks/ (mechanism) must not depend on core/replay/ (top))",
      "core/tasks/board.ts: imports core/teams/roster.ts" +
      " (core/tasks/ (mechanism) must not depend on core/teams/ (mechanism))",
      "core/worktrees/w.ts: imports core/teams/roster.ts" +
      " (core/worktrees/ (mechanism) must not depend on core/teams/ (mechanism))",
    ],
  );
});

Deno.test("core ranks: runner, replay, harness.ts and mod.ts import anything in core/", async () => {
  const everything = [
    "events/store.ts",
    "core/effects/sleep.ts",
    "core/tasks/projection.ts",
    "core/state/state.ts",
    "core/loop/loop.ts",
    "core/tasks/board.ts",
    "core/replay/replay.ts",
    "core/runner/run.ts",
    "core/harness.ts",
  ];
  assert.deepEqual(
    await violationsIn({
      "core/runner/run.ts": everything,
      "core/replay/replay.ts": everything,
      "core/harness.ts": everything,
      "core/mod.ts": everything,
    }),
    [],
  );
});

Deno.test("core ranks: a file directly in core/ other than harness, mechanism, mod is reported", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/foo.ts": ["core/loop/loop.ts"],
      "core/harness.ts": [],
      "core/mechanism.ts": [],
      "core/mod.ts": [],
    }),
    ["core/foo.ts: is not in a rank (put it in a folder of core/ or name it in the layer check)"],
  );
});

Deno.test("core ranks: _test.ts files follow their rank but may import testing/", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/effects/sleep_test.ts": ["testing/fake.ts", "core/effects/sleep.ts", "core/loop/l.ts"],
      "core/tasks/board_test.ts": ["testing/fake.ts", "core/tasks/board.ts", "core/teams/t.ts"],
      "core/tasks/projection_test.ts": ["testing/events.ts", "core/tasks/projection.ts"],
    }),
    [
      "core/effects/sleep_test.ts: imports core/loop/l.ts" +
      " (core/effects/ (effects) must not depend on core/loop/ (kernel))",
      "core/tasks/board_test.ts: imports core/teams/t.ts" +
      " (core/tasks/ (mechanism) must not depend on core/teams/ (mechanism))",
    ],
  );
});

Deno.test("the layer check reads every relative import form and ignores other specifiers", async () => {
  assert.deepEqual(
    await violationsIn({
      "core/loop/forms.ts": [
        'import type { A } from "../../cli/a.ts";',
        'export { b } from "../../cli/b.ts";',
        'export * from "../../cli/c.ts";',
        "import {\n  d,\n  e,\n} from '../../cli/d.ts';",
        'const f = await import("../../cli/f.ts");',
        'import "../../cli/g.ts";',
        'import { z } from "npm:zod@4";',
        'import { Command } from "commander";',
        'import { readFile } from "node:fs/promises";',
        "",
      ].join("\n"),
    }),
    ["a", "b", "c", "d", "f", "g"].map((name) =>
      `core/loop/forms.ts: imports cli/${name}.ts (core/ must not depend on cli/)`
    ),
  );
});

Deno.test("the layer check refuses node:path in production code, not in tests", async () => {
  const pathImport = ['import { join } from "node:path";', ""].join("\n");
  assert.deepEqual(
    await violationsIn({
      "core/loop/paths.ts": pathImport,
      "core/loop/paths_test.ts": pathImport,
      "tests/paths_test.ts": pathImport,
      "testing/paths.ts": pathImport,
    }),
    [
      "core/loop/paths.ts: imports node:path (production code uses events/posix_path.ts: " +
      "Node's path module costs every start its load)",
    ],
  );
});

Deno.test("the layer check sorts violations and skips generated and tool folders", async () => {
  const bad = ["cli/main.ts"];
  assert.deepEqual(
    await violationsIn({
      "events/z.ts": bad,
      "core/loop/b.ts": bad,
      "core/loop/a.ts": bad,
      "tests/golden/core/loop/x.ts": bad,
      "node_modules/core/loop/x.ts": ["tests/_cli.ts"],
      "dist/x.ts": ["tests/_cli.ts"],
      ".rein/x.ts": ["tests/_cli.ts"],
      ".git/x.ts": ["tests/_cli.ts"],
    }),
    [
      "core/loop/a.ts: imports cli/main.ts (core/ must not depend on cli/)",
      "core/loop/b.ts: imports cli/main.ts (core/ must not depend on cli/)",
      "events/z.ts: imports cli/main.ts (events/ must not depend on cli/)",
    ],
  );
});
