import assert from "node:assert/strict";
import { hiddenInside, visibleCandidates, visiblePaths } from "./_visible_paths.ts";

Deno.test("a confined sandbox may show the system's folders, git's configuration in the home and, with the network, the resolver's folder", () => {
  const paths = visibleCandidates("/home/u", true);
  for (const path of ["/usr", "/bin", "/lib64", "/etc", "/home/u/.gitconfig"]) {
    assert.ok(paths.includes(path), path);
  }
  assert.ok(paths.includes("/home/u/.config/git/config"));
  assert.ok(paths.includes("/run/systemd/resolve"));
  assert.ok(!paths.some((path) => /credentials|\.ssh|^\/home\/u$/.test(path)), paths.join(" "));
  assert.ok(!visibleCandidates(undefined, false).some((path) => path.startsWith("/run")));
  assert.ok(!visibleCandidates("relative", false).some((path) => path.includes("gitconfig")));
});

Deno.test("visiblePaths binds what exists, keeps links into a shown folder as links, the workspace last", () => {
  const candidates = ["/usr", "/bin", "/lib32", "/etc", "/odd", "/home/u/.gitconfig"];
  const visible = visiblePaths(candidates, [
    { real: "/usr", kind: "directory" },
    { real: "/usr/bin", kind: "directory" },
    undefined,
    { real: "/etc", kind: "directory" },
    // A link to a folder not shown: bound (bwrap follows it), not a link to nothing.
    { real: "/elsewhere/odd", kind: "directory" },
    { real: "/home/u/.gitconfig", kind: "file" },
  ], "/work/project");
  assert.deepEqual(visible, [
    { path: "/usr" },
    { path: "/bin", link: "/usr/bin" },
    { path: "/etc" },
    { path: "/odd" },
    { path: "/home/u/.gitconfig" },
    { path: "/work/project" },
  ]);
});

Deno.test("hiddenInside keeps only the masks over what a confined sandbox shows", () => {
  const hidden = hiddenInside(
    [
      { path: "/home/u/.ssh", kind: "directory" },
      { path: "/run/user", kind: "directory" },
      { path: "/work/project/.env.key", kind: "file" },
      { path: "/data/log/.netrc", kind: "file" },
      { path: "/usr/bin/secret", kind: "file" },
    ],
    [{ path: "/usr" }, { path: "/bin", link: "/usr/bin" }, { path: "/home/u/.gitconfig" }],
    ["/work/project", "/data/log"],
  );
  assert.deepEqual(hidden.map(({ path }) => path), [
    "/work/project/.env.key",
    "/data/log/.netrc",
    "/usr/bin/secret",
  ]);
});
