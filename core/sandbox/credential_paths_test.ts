import assert from "node:assert/strict";
import { credentialPaths } from "./credential_paths.ts";

Deno.test("credentialPaths covers the usual stores under home", () => {
  const paths = credentialPaths("/home/u", {});
  for (const entry of [".ssh", ".aws", ".config/gcloud", ".gnupg", ".azure", ".kube", ".docker"]) {
    assert.ok(paths.includes(`/home/u/${entry}`), entry);
  }
  for (const file of [".netrc", ".npmrc", ".git-credentials", ".claude/.credentials.json"]) {
    assert.ok(paths.includes(`/home/u/${file}`), file);
  }
  assert.ok(paths.includes("/var/run/docker.sock"));
});

Deno.test("credentialPaths adds the files credential variables name, absolute ones only", () => {
  const paths = credentialPaths(undefined, {
    SSH_AUTH_SOCK: "/run/user/1000/ssh.sock",
    KUBECONFIG: "/etc/kube/a.yaml:relative.yaml:/etc/kube/b.yaml",
    GOOGLE_APPLICATION_CREDENTIALS: "/secrets/sa.json",
    XDG_RUNTIME_DIR: "/run/user/1000",
  });
  for (
    const path of [
      "/run/user/1000/ssh.sock",
      "/etc/kube/a.yaml",
      "/etc/kube/b.yaml",
      "/secrets/sa.json",
      "/run/user/1000",
      "/run/dbus/system_bus_socket",
    ]
  ) assert.ok(paths.includes(path), path);
  assert.ok(!paths.includes("relative.yaml"));
  assert.ok(!paths.some((path) => path.includes(".ssh")), "no home, no home entries");
  assert.equal(new Set(paths).size, paths.length);
});
