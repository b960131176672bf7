import assert from "node:assert/strict";
import { badGitUrl, marketplaceSource, parseMarketplace } from "./marketplace.ts";

const ROOT = "/m/mkt";
const FILE = `${ROOT}/.claude-plugin/marketplace.json`;

function parse(plugins: unknown[], extra: Record<string, unknown> = {}) {
  const parsed = parseMarketplace(
    FILE,
    JSON.stringify({ name: "mkt", owner: { name: "o" }, plugins, ...extra }),
    ROOT,
  );
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
  return parsed.marketplace.plugins;
}

Deno.test("a marketplace's relative sources are folders inside it, pluginRoot included", () => {
  const plugins = parse([
    { name: "a", source: "./plugins/a", version: "1.0.0", description: "A" },
    { name: "b", source: "b" },
    { name: "self", source: "./" },
  ], { metadata: { pluginRoot: "./plugins" } });
  assert.deepEqual(plugins, [
    {
      name: "a",
      source: { kind: "folder", path: "/m/mkt/plugins/a" },
      version: "1.0.0",
      description: "A",
    },
    { name: "b", source: { kind: "folder", path: "/m/mkt/plugins/b" } },
    { name: "self", source: { kind: "folder", path: "/m/mkt" } },
  ]);
});

Deno.test("a source that leads out of the marketplace (../, an absolute path) is refused", () => {
  const plugins = [
    ...parse([
      { name: "up", source: "../../.." },
      { name: "dots", source: "./plugins/../../../etc" },
      { name: "abs", source: "/etc" },
    ]),
    ...parse([{ name: "rooted", source: "x" }], { metadata: { pluginRoot: "/etc" } }),
    ...parse([{ name: "climb", source: "x" }], { metadata: { pluginRoot: "../.." } }),
  ];
  for (const plugin of plugins) {
    assert.equal(plugin.source.kind, "unsupported", plugin.name);
  }
  assert.match(JSON.stringify(plugins[0]), /leads out of the marketplace's folder/);
  assert.match(JSON.stringify(plugins[2]), /absolute path/);
});

Deno.test("git sources: github repo, url with ref and sha, git-subdir; npm is not installed", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const plugins = parse([
    { name: "gh", source: { source: "github", repo: "owner/repo", ref: "v1" } },
    { name: "url", source: { source: "url", url: "file:///srv/p.git", sha } },
    { name: "sub", source: { source: "git-subdir", url: "owner/mono", path: "./tools/x" } },
    { name: "npm", source: { source: "npm", package: "@x/y" } },
  ]);
  assert.deepEqual(plugins.map((plugin) => plugin.source), [
    { kind: "git", git: { url: "https://github.com/owner/repo.git", ref: "v1" } },
    { kind: "git", git: { url: "file:///srv/p.git", sha } },
    { kind: "git", git: { url: "https://github.com/owner/mono.git", path: "tools/x" } },
    { kind: "unsupported", why: "it comes from npm, which rein does not install" },
  ]);
});

Deno.test("hostile git sources are refused: an option as URL, a remote helper, a ref as option, a subdir out", () => {
  const plugins = parse([
    { name: "opt", source: { source: "url", url: "--upload-pack=touch /tmp/pwned" } },
    { name: "dash", source: { source: "url", url: "-oProxyCommand=x" } },
    { name: "ext", source: { source: "url", url: "ext::sh -c touch% /tmp/pwned" } },
    { name: "ref", source: { source: "github", repo: "o/r", ref: "--upload-pack=x" } },
    { name: "repo", source: { source: "github", repo: "../../x" } },
    { name: "sub", source: { source: "git-subdir", url: "o/r", path: "../../.." } },
    { name: "sha", source: { source: "url", url: "file:///x", sha: "HEAD" } },
    { name: "nl", source: { source: "url", url: "https://h/x\n--upload-pack=y" } },
  ]);
  for (const plugin of plugins) {
    assert.equal(plugin.source.kind, "unsupported", `${plugin.name}: ${JSON.stringify(plugin)}`);
  }
});

Deno.test("a plugin name with / or .. is left out of the marketplace's list", () => {
  const plugins = parse([
    { name: "../evil", source: "./x" },
    { name: "a/b", source: "./x" },
    { name: "fine", source: "./x" },
    { source: "./nameless" },
  ]);
  assert.deepEqual(plugins.map((plugin) => plugin.name), ["fine"]);
});

Deno.test("a marketplace.json that cannot be used says why, naming the file", () => {
  for (
    const [text, why] of [
      ["{", /is not JSON/],
      ["[]", /not a JSON object/],
      ['{"plugins": []}', /no "name"/],
      ['{"name": "m", "plugins": {}}', /"plugins" is not a list/],
    ] as const
  ) {
    const parsed = parseMarketplace(FILE, text, ROOT);
    assert.equal(parsed.ok, false);
    if (!parsed.ok) {
      assert.match(parsed.message, why);
      assert.ok(parsed.message.includes(FILE));
    }
  }
});

Deno.test("badGitUrl accepts the usual URLs and local paths, refuses options and helpers", () => {
  for (
    const url of [
      "https://github.com/o/r.git",
      "ssh://git@host/o/r.git",
      "git@github.com:o/r.git",
      "file:///srv/r.git",
      "/srv/r.git",
    ]
  ) assert.equal(badGitUrl(url), undefined, url);
  for (
    const url of [
      "--upload-pack=evil",
      "-u evil",
      "ext::sh -c evil",
      "https://-x/",
      "relative/path",
      "https://h/a b",
    ]
  ) assert.notEqual(badGitUrl(url), undefined, url);
});

Deno.test("marketplace sources: directory and file (relative to the workspace, ~/), git, github; url is not used", () => {
  assert.deepEqual(marketplaceSource({ source: "directory", path: "./mkts/a" }, "/ws", "/h"), {
    kind: "folder",
    root: "/ws/mkts/a",
    file: "/ws/mkts/a/.claude-plugin/marketplace.json",
  });
  assert.deepEqual(
    marketplaceSource({ source: "file", path: "~/m/.claude-plugin/marketplace.json" }, "/ws", "/h"),
    { kind: "folder", root: "/h/m", file: "/h/m/.claude-plugin/marketplace.json" },
  );
  assert.deepEqual(marketplaceSource({ source: "git", url: "file:///srv/m.git" }, "/ws", "/h"), {
    kind: "git",
    git: { url: "file:///srv/m.git" },
  });
  assert.deepEqual(marketplaceSource({ source: "github", repo: "o/m" }, "/ws", "/h"), {
    kind: "git",
    git: { url: "https://github.com/o/m.git" },
  });
  assert.equal(
    marketplaceSource({ source: "url", url: "https://x/m.json" }, "/ws", "/h").kind,
    "unsupported",
  );
  assert.equal(
    marketplaceSource({ source: "git", url: "--upload-pack=x" }, "/ws", "/h").kind,
    "unsupported",
  );
});
