import assert from "node:assert/strict";
import { join } from "node:path";
import { type EnabledPluginsPlace, resolveEnabledPlugins } from "./enabled_plugins.ts";
import { enabledPlugins } from "./enabled_plugins_settings.ts";
import { type GitRunner, runGitCommand } from "./marketplace_clone.ts";

async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-plugins-" }));
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** A plugin folder named `name` at `dir` with one command. */
async function plugin(dir: string, name: string | undefined): Promise<void> {
  if (name !== undefined) {
    await write(join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name }));
  }
  await write(join(dir, "commands/hello.md"), "Say hello.\n");
}

/** A marketplace folder at `dir` listing `plugins`. */
async function marketplace(dir: string, name: string, plugins: unknown[]): Promise<void> {
  await write(
    join(dir, ".claude-plugin/marketplace.json"),
    JSON.stringify({ name, owner: { name: "o" }, plugins }),
  );
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** A bare repository at `bare` holding the folder `from`'s files. */
async function bareRepository(from: string, bare: string): Promise<void> {
  await git(from, "init", "-q", "-b", "main");
  await git(from, "add", ".");
  await git(from, "commit", "-q", "-m", "init");
  await git(from, "init", "-q", "--bare", bare);
  await git(from, "push", "-q", bare, "main");
  await git(bare, "symbolic-ref", "HEAD", "refs/heads/main");
}

function settings(path: string, other: Record<string, unknown>) {
  return { path, settings: { other } };
}

function counting(): { runGit: GitRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    runGit: (args, cwd) => {
      calls.push(args);
      return runGitCommand(args, cwd);
    },
  };
}

function place(root: string, files: EnabledPluginsPlace["files"]): EnabledPluginsPlace {
  return {
    files,
    workspace: join(root, "ws"),
    home: join(root, "home"),
    cache: join(root, "home/.cache/rein/plugins"),
  };
}

Deno.test("enabledPlugins: the highest file decides each plugin, false disables, bad ids are named", () => {
  const { plugins, notices } = enabledPlugins([
    settings("/p/.claude/settings.json", { enabledPlugins: { "a@m": false, "c@m": true } }),
    settings("/h/.claude/settings.json", {
      enabledPlugins: { "a@m": true, "b@m": true, "noat": true, "x/y@m": true, "d@m": "yes" },
    }),
  ]);
  assert.deepEqual(plugins.map((plugin) => plugin.id), ["b@m", "c@m"]);
  assert.equal(notices.length, 3, notices.join("\n"));
  assert.match(notices.join("\n"), /"noat".*not <plugin>@<marketplace>/);
  assert.match(notices.join("\n"), /"x\/y@m".*plugin's name/);
  assert.match(notices.join("\n"), /"d@m".*neither true nor false/);
});

Deno.test("a plugin from a marketplace folder declared in extraKnownMarketplaces", async () => {
  await using dir = await tempDir();
  await marketplace(join(dir.path, "mkt"), "local-mkt", [{
    name: "demo",
    source: "./plugins/demo",
  }]);
  await plugin(join(dir.path, "mkt/plugins/demo"), "demo");
  const found = await resolveEnabledPlugins(place(dir.path, [
    settings("/h/.claude/settings.json", {
      enabledPlugins: { "demo@local-mkt": true },
      extraKnownMarketplaces: {
        "local-mkt": { source: { source: "directory", path: join(dir.path, "mkt") } },
      },
    }),
  ]));
  assert.deepEqual(found, {
    plugins: [{ name: "demo", root: join(dir.path, "mkt/plugins/demo"), source: "demo@local-mkt" }],
    notices: [],
  });
});

Deno.test("a git marketplace is cloned once into rein's cache, then used from there", async () => {
  await using dir = await tempDir();
  const source = join(dir.path, "src");
  await marketplace(source, "git-mkt", [{ name: "tool", source: "./tool" }]);
  await plugin(join(source, "tool"), "tool");
  await bareRepository(source, join(dir.path, "mkt.git"));
  const files = [settings("/h/.claude/settings.json", {
    enabledPlugins: { "tool@git-mkt": true },
    extraKnownMarketplaces: {
      "git-mkt": { source: { source: "git", url: `file://${dir.path}/mkt.git` } },
    },
  })];
  const git = counting();
  const first = await resolveEnabledPlugins({ ...place(dir.path, files), runGit: git.runGit });
  assert.deepEqual(first.notices, []);
  assert.equal(first.plugins.length, 1);
  const [tool] = first.plugins;
  assert.equal(tool?.name, "tool");
  assert.equal(tool?.source, "tool@git-mkt");
  assert.ok(
    tool?.root.startsWith(join(dir.path, "home/.cache/rein/plugins/marketplaces/git-mkt-")),
  );
  assert.equal(git.calls.length, 1);
  assert.equal(git.calls[0]?.[git.calls[0].indexOf("--") + 1], `file://${dir.path}/mkt.git`);
  const again = await resolveEnabledPlugins({ ...place(dir.path, files), runGit: git.runGit });
  assert.deepEqual(again.plugins, first.plugins);
  assert.equal(git.calls.length, 1, "the clone is reused");
});

Deno.test("a plugin Claude Code installed is used from its cache, named as enabled", async () => {
  await using dir = await tempDir();
  const cache = join(dir.path, "home/.claude/plugins/cache/cc-mkt/demo/1.0.0");
  await plugin(cache, undefined);
  await write(
    join(dir.path, "home/.claude/plugins/installed_plugins.json"),
    JSON.stringify({
      version: 2,
      plugins: { "demo@cc-mkt": [{ scope: "user", installPath: cache, version: "1.0.0" }] },
    }),
  );
  const found = await resolveEnabledPlugins(place(dir.path, [
    settings("/h/.claude/settings.json", { enabledPlugins: { "demo@cc-mkt": true } }),
  ]));
  assert.deepEqual(found, {
    plugins: [{ name: "demo", root: cache, source: "demo@cc-mkt" }],
    notices: [],
  });
});

Deno.test("a marketplace Claude Code knows (known_marketplaces.json) needs no declaration", async () => {
  await using dir = await tempDir();
  const location = join(dir.path, "home/.claude/plugins/marketplaces/cc-mkt");
  await marketplace(location, "cc-mkt", [{ name: "demo", source: "./demo" }]);
  await plugin(join(location, "demo"), "demo");
  await write(
    join(dir.path, "home/.claude/plugins/known_marketplaces.json"),
    JSON.stringify({
      "cc-mkt": { source: { source: "github", repo: "o/cc-mkt" }, installLocation: location },
    }),
  );
  const git = counting();
  const found = await resolveEnabledPlugins({
    ...place(dir.path, [
      settings("/h/.claude/settings.json", {
        enabledPlugins: { "demo@cc-mkt": true },
        extraKnownMarketplaces: { "cc-mkt": { source: { source: "github", repo: "o/cc-mkt" } } },
      }),
    ]),
    runGit: git.runGit,
  });
  assert.deepEqual(found.notices, []);
  assert.equal(found.plugins[0]?.root, join(location, "demo"));
  assert.equal(git.calls.length, 0, "Claude Code's clone is shared, nothing is cloned");
});

Deno.test("hostile marketplaces: a link out of the folder, a git URL that is an option, a huge list", async () => {
  await using dir = await tempDir();
  const mkt = join(dir.path, "mkt");
  await plugin(join(dir.path, "outside"), "escape");
  await marketplace(mkt, "evil", [
    { name: "escape", source: "./link" },
    { name: "up", source: "../outside" },
    { name: "opt", source: { source: "url", url: "--upload-pack=touch pwned" } },
  ]);
  await Deno.symlink(join(dir.path, "outside"), join(mkt, "link"));
  await write(
    join(dir.path, "huge/.claude-plugin/marketplace.json"),
    `{"name":"huge","plugins":[],"pad":"${"x".repeat(1024 * 1024)}"}`,
  );
  const git = counting();
  const found = await resolveEnabledPlugins({
    ...place(dir.path, [
      settings("/h/.claude/settings.json", {
        enabledPlugins: {
          "escape@evil": true,
          "up@evil": true,
          "opt@evil": true,
          "x@huge": true,
          "y@gone": true,
          "z@badgit": true,
        },
        extraKnownMarketplaces: {
          evil: { source: { source: "directory", path: mkt } },
          huge: { source: { source: "directory", path: join(dir.path, "huge") } },
          badgit: { source: { source: "git", url: "-oProxyCommand=touch pwned" } },
        },
      }),
    ]),
    runGit: git.runGit,
  });
  assert.deepEqual(found.plugins, []);
  assert.equal(git.calls.length, 0, "git never ran");
  const [escape, up, opt, huge, gone, badgit] = found.notices;
  assert.match(escape ?? "", /"escape@evil".*leads to .*outside/);
  assert.match(up ?? "", /"up@evil".*leads out of the marketplace's folder/);
  assert.match(opt ?? "", /"opt@evil".*begins with "-"/);
  assert.match(huge ?? "", /"x@huge".*over the 1048576-byte limit/);
  assert.match(gone ?? "", /"y@gone".*marketplace "gone" is not known/);
  assert.match(badgit ?? "", /"z@badgit".*marketplace "badgit".*begins with "-"/);
});

Deno.test("a git marketplace that cannot be reached is one line naming the plugin and the marketplace", async () => {
  await using dir = await tempDir();
  const found = await resolveEnabledPlugins(place(dir.path, [
    settings("/h/.claude/settings.json", {
      enabledPlugins: { "demo@far": true },
      extraKnownMarketplaces: {
        far: { source: { source: "git", url: `file://${dir.path}/missing.git` } },
      },
    }),
  ]));
  assert.deepEqual(found.plugins, []);
  assert.equal(found.notices.length, 1);
  assert.match(
    found.notices[0] ?? "",
    /^Cannot use the plugin "demo@far" enabled in settings: the marketplace "far" could not be cloned from "file:\/\/.*missing\.git": /,
  );
});

Deno.test("an enabled plugin with the name of a --plugin-dir one is skipped, naming both", async () => {
  await using dir = await tempDir();
  await marketplace(join(dir.path, "mkt"), "m", [{ name: "demo", source: "./demo" }]);
  await plugin(join(dir.path, "mkt/demo"), "demo");
  const found = await resolveEnabledPlugins({
    ...place(dir.path, [
      settings("/h/.claude/settings.json", {
        enabledPlugins: { "demo@m": true },
        extraKnownMarketplaces: {
          m: { source: { source: "directory", path: join(dir.path, "mkt") } },
        },
      }),
    ]),
    before: [{ name: "demo", root: "/dev/demo", source: "--plugin-dir" }],
  });
  assert.deepEqual(found.plugins, []);
  assert.match(
    found.notices[0] ?? "",
    /"demo@m".*"\/dev\/demo" \(--plugin-dir\) has the same name/,
  );
});

Deno.test("a marketplace's git plugin sources: git-subdir and a url at a given commit, cloned into rein's cache", async () => {
  await using dir = await tempDir();
  const mono = join(dir.path, "mono");
  await plugin(join(mono, "tools/p"), "p");
  await bareRepository(mono, join(dir.path, "mono.git"));
  const sha = new TextDecoder().decode(
    (await new Deno.Command("git", { args: ["rev-parse", "HEAD"], cwd: mono }).output()).stdout,
  ).trim();
  // A later commit the pinned plugin must not see.
  await write(join(mono, "tools/p/commands/later.md"), "Later.\n");
  await git(mono, "add", ".");
  await git(mono, "commit", "-q", "-m", "later");
  await git(mono, "push", "-q", join(dir.path, "mono.git"), "main");
  await marketplace(join(dir.path, "mkt"), "m", [
    {
      name: "p",
      source: { source: "git-subdir", url: `file://${dir.path}/mono.git`, path: "tools/p" },
    },
    { name: "pinned", source: { source: "url", url: `file://${dir.path}/mono.git`, sha } },
  ]);
  const found = await resolveEnabledPlugins(place(dir.path, [
    settings("/h/.claude/settings.json", {
      enabledPlugins: { "p@m": true, "pinned@m": true },
      extraKnownMarketplaces: {
        m: { source: { source: "directory", path: join(dir.path, "mkt") } },
      },
    }),
  ]));
  assert.deepEqual(found.notices, []);
  const [p, pinned] = found.plugins;
  assert.equal(p?.name, "p");
  assert.match(
    p?.root ?? "",
    /\/home\/\.cache\/rein\/plugins\/plugins\/m\/p-[0-9a-f]{12}\/tools\/p$/,
  );
  await Deno.stat(join(p?.root ?? "", "commands/later.md"));
  // The whole repository is the pinned plugin (no manifest at its root): named as enabled.
  assert.equal(pinned?.name, "pinned");
  await Deno.stat(join(pinned?.root ?? "", "tools/p/commands/hello.md"));
  await assert.rejects(Deno.stat(join(pinned?.root ?? "", "tools/p/commands/later.md")));
});
