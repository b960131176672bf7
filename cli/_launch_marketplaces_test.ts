import assert from "node:assert/strict";
import { marketplaceFolders } from "./_launch_marketplaces.ts";
import { planLaunch } from "./_launch_plan.ts";

const SETTINGS = JSON.stringify({
  enabledPlugins: { "a@dir": true },
  extraKnownMarketplaces: {
    dir: { source: { source: "directory", path: "/srv/mkt" } },
    home: { source: { source: "directory", path: "~/mkts/team" } },
    relative: { source: { source: "directory", path: "./vendor/mkt" } },
    file: { source: { source: "file", path: "/srv/other/.claude-plugin/marketplace.json" } },
    git: { source: { source: "git", url: "file:///srv/m.git" } },
    github: { source: { source: "github", repo: "o/r" } },
  },
});

Deno.test("marketplaceFolders: the folders of directory and file marketplaces, as core/plugins reads them", () => {
  assert.deepEqual(marketplaceFolders(SETTINGS, "/h", "/w"), [
    "/srv/mkt",
    "/h/mkts/team",
    "/w/vendor/mkt",
    "/srv/other",
  ]);
  for (const text of [undefined, "{", "[]", '{"extraKnownMarketplaces": 1}', "{}"]) {
    assert.deepEqual(marketplaceFolders(text, "/h", "/w"), [], String(text));
  }
});

Deno.test("the agent may read the marketplace folders the person's settings name, and only with them", () => {
  const context = { env: { HOME: "/h" }, cwd: "/w", root: "/rein", realPath: () => undefined };
  const read = (plan: { permissions: string[] }) =>
    plan.permissions.find((flag) => flag.startsWith("--allow-read="))?.split("=")[1]?.split(",");
  const named = read(
    planLaunch({
      ...context,
      argv: ["-p", "hi"],
      readText: (path) => path === "/h/.claude/settings.json" ? SETTINGS : undefined,
    }),
  );
  for (const folder of ["/srv/mkt", "/h/mkts/team", "/w/vendor/mkt", "/srv/other"]) {
    assert.ok(named?.includes(folder), `${folder} in ${named}`);
  }
  const none = read(planLaunch({ ...context, argv: ["-p", "hi"] }));
  assert.ok(!none?.includes("/srv/mkt"), String(none));
  const writable = planLaunch({ ...context, argv: ["-p", "hi"], readText: () => SETTINGS })
    .permissions.find((flag) => flag.startsWith("--allow-write="));
  assert.ok(!writable?.includes("/srv/mkt"), "read only");
});

Deno.test("the agent may read Claude Code's plugins where CLAUDE_CONFIG_DIR moves them", () => {
  const read = (env: Record<string, string>) =>
    planLaunch({ env, cwd: "/w", root: "/rein", realPath: () => undefined, argv: ["-p", "hi"] })
      .permissions.find((flag) => flag.startsWith("--allow-read="))?.split("=")[1]?.split(",");
  assert.ok(read({ HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" })?.includes("/cfg/plugins"));
  assert.ok(
    !read({ HOME: "/h", CLAUDE_CONFIG_DIR: "cfg" })?.some((p) => p.endsWith("cfg/plugins")),
  );
});
