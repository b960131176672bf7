import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSettings, settingsPaths } from "./load_settings.ts";

/** A temp directory with `workspace/` and `home/`, removed after `body`. */
async function withDirs(
  files: Record<string, string>,
  body: (dirs: { root: string; workspace: string; home: string }) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "rein-settings-" });
  try {
    const workspace = join(root, "workspace");
    const home = join(root, "home");
    await Deno.mkdir(workspace);
    await Deno.mkdir(home);
    for (const [path, text] of Object.entries(files)) {
      const full = join(root, path);
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeTextFile(full, text);
    }
    await body({ root, workspace, home });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("the settings files are listed highest precedence first", () => {
  assert.deepEqual(settingsPaths({ workspace: "/w", home: "/h", cliFile: "/tmp/s.json" }), [
    { scope: "cli", path: "/tmp/s.json" },
    { scope: "local", path: "/w/.claude/settings.local.json" },
    { scope: "project", path: "/w/.claude/settings.json" },
    { scope: "user", path: "/h/.claude/settings.json" },
  ]);
});

Deno.test("without a home directory or --settings only the project files are listed", () => {
  assert.deepEqual(settingsPaths({ workspace: "/w", home: undefined }), [
    { scope: "local", path: "/w/.claude/settings.local.json" },
    { scope: "project", path: "/w/.claude/settings.json" },
  ]);
});

Deno.test("a relative --settings file is taken relative to the workspace", () => {
  const paths = settingsPaths({ workspace: "/w", home: undefined, cliFile: "ci/settings.json" });

  assert.deepEqual(paths[0], { scope: "cli", path: "/w/ci/settings.json" });
});

Deno.test("in the home directory the user file is listed once, as the project file", () => {
  assert.deepEqual(settingsPaths({ workspace: "/h/", home: "/h" }), [
    { scope: "local", path: "/h/.claude/settings.local.json" },
    { scope: "project", path: "/h/.claude/settings.json" },
  ]);
});

Deno.test("files of every scope are read, recorded with their text and merged", async () => {
  const files = {
    "cli.json": JSON.stringify({ model: "from-cli" }),
    "workspace/.claude/settings.local.json": JSON.stringify({
      model: "from-local",
      permissions: { allow: ["Bash(make *)"] },
    }),
    "workspace/.claude/settings.json": JSON.stringify({
      model: "from-project",
      fallbackModel: "from-project",
      permissions: { allow: ["Read"], defaultMode: "acceptEdits" },
    }),
    "home/.claude/settings.json": '{ "permissions": { "deny": ["Bash(rm *)"] } }\n',
  };
  await withDirs(files, async ({ root, workspace, home }) => {
    const loaded = await loadSettings({ workspace, home, cliFile: join(root, "cli.json") });

    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(loaded.items.settings, {
      model: "from-cli",
      fallbackModel: "from-project",
      permissions: {
        allow: ["Bash(make *)", "Read"],
        deny: ["Bash(rm *)"],
        defaultMode: "acceptEdits",
      },
      other: {},
    });
    assert.deepEqual(
      loaded.items.sources.map((source) => [source.scope, source.path, source.text]),
      [
        ["cli", join(root, "cli.json"), files["cli.json"]],
        [
          "local",
          join(workspace, ".claude/settings.local.json"),
          files["workspace/.claude/settings.local.json"],
        ],
        [
          "project",
          join(workspace, ".claude/settings.json"),
          files["workspace/.claude/settings.json"],
        ],
        ["user", join(home, ".claude/settings.json"), files["home/.claude/settings.json"]],
      ],
    );
  });
});

Deno.test("missing settings files are absent without diagnostics", async () => {
  await withDirs({}, async ({ workspace, home }) => {
    assert.deepEqual(await loadSettings({ workspace, home }), {
      items: { sources: [], settings: { other: {} } },
      diagnostics: [],
    });
  });
});

Deno.test("a .claude that is a file, not a directory, means no project settings", async () => {
  await withDirs({ "workspace/.claude": "" }, async ({ workspace, home }) => {
    assert.deepEqual((await loadSettings({ workspace, home })).diagnostics, []);
  });
});

Deno.test("a missing --settings file is an error and the other files still load", async () => {
  const files = { "workspace/.claude/settings.json": '{"model": "opus"}' };
  await withDirs(files, async ({ root, workspace, home }) => {
    const cliFile = join(root, "nope.json");

    const loaded = await loadSettings({ workspace, home, cliFile });

    assert.equal(loaded.items.settings.model, "opus");
    assert.deepEqual(loaded.diagnostics, [{
      path: cliFile,
      severity: "error",
      message: `Cannot read settings in "${cliFile}" given by --settings: no such file`,
      fatal: true,
    }]);
  });
});

Deno.test("a settings path that is a directory is an error naming it", async () => {
  const files = {
    "workspace/.claude/settings.json/keep": "",
    "home/.claude/settings.json": '{"model": "opus"}',
  };
  await withDirs(files, async ({ workspace, home }) => {
    const loaded = await loadSettings({ workspace, home });

    const path = join(workspace, ".claude/settings.json");
    assert.equal(loaded.items.settings.model, "opus");
    assert.deepEqual(loaded.diagnostics, [{
      path,
      severity: "error",
      message: `Cannot read settings in "${path}": it is a directory, not a file`,
      fatal: true,
    }]);
  });
});

Deno.test("a file that does not parse is recorded and reported, and the others still load", async () => {
  const files = {
    "workspace/.claude/settings.local.json": '{"model": "opus",}',
    "workspace/.claude/settings.json": '{"permissions": {"deny": ["Bash(rm *)", 7]}}',
  };
  await withDirs(files, async ({ workspace }) => {
    const loaded = await loadSettings({ workspace, home: undefined });

    assert.deepEqual(loaded.items.settings, { permissions: { deny: ["Bash(rm *)"] }, other: {} });
    assert.deepEqual(loaded.items.sources.map((source) => source.scope), ["local", "project"]);
    assert.deepEqual(loaded.diagnostics.map((d) => d.message), [
      `Cannot parse settings in "${join(workspace, ".claude/settings.local.json")}" at line 1, ` +
      `column 18: Expected double-quoted property name`,
      `Invalid settings in "${join(workspace, ".claude/settings.json")}": ` +
      `permissions.deny[1] must be a string, found 7`,
    ]);
  });
});

Deno.test("an unreadable file is an error, and a reader's failure never escapes", async () => {
  const loaded = await loadSettings({
    workspace: "/w",
    home: "/h",
    readTextFile: (path) => {
      if (path.startsWith("/h")) throw new Deno.errors.PermissionDenied("EACCES");
      if (path.endsWith("local.json")) return Promise.reject("disk on fire");
      return Promise.resolve("{}");
    },
  });

  assert.deepEqual(loaded.items.sources.map((source) => source.scope), ["project"]);
  assert.deepEqual(loaded.diagnostics.map((d) => d.message), [
    `Cannot read settings in "/w/.claude/settings.local.json": disk on fire`,
    `Cannot read settings in "/h/.claude/settings.json": permission denied`,
  ]);
});

Deno.test("the settings files are read in parallel", async () => {
  const started: string[] = [];
  const release = Promise.withResolvers<void>();
  const loading = loadSettings({
    workspace: "/w",
    home: "/h",
    cliFile: "/c.json",
    readTextFile: async (path) => {
      started.push(path);
      await release.promise;
      return "{}";
    },
  });

  await Promise.resolve();
  assert.equal(started.length, 4);
  release.resolve();
  assert.equal((await loading).items.sources.length, 4);
});

Deno.test("settingsPaths reads only the sources asked for, and --settings always", () => {
  const paths = (sources?: readonly ("user" | "project" | "local")[]) =>
    settingsPaths({ workspace: "/w", home: "/h", cliFile: "s.json", sources }).map((f) => f.scope);
  assert.deepEqual(paths(), ["cli", "local", "project", "user"]);
  assert.deepEqual(paths([]), ["cli"]);
  assert.deepEqual(paths(["user", "local"]), ["cli", "local", "user"]);
});
