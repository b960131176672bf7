import { isAbsolute, join } from "../../events/posix_path.ts";

/** Credential stores under the home directory: keys, tokens, cloud and registry logins. */
const IN_HOME = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".config/containers/auth.json",
  ".netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".m2/settings-security.xml",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".pgpass",
  ".my.cnf",
  ".s3cfg",
  ".boto",
  ".oci",
  ".config/doctl",
  ".config/op",
  ".password-store",
  ".local/share/keyrings",
  ".claude/.credentials.json",
  ".local/state/rein",
];

/**
 * Sockets that run things outside the sandbox regardless of a read-only mount: container engines
 * (root), and the system D-Bus (systemd would start a command for anyone who may ask).
 */
const SOCKETS = [
  "/var/run/docker.sock",
  "/run/docker.sock",
  "/run/podman/podman.sock",
  "/run/dbus/system_bus_socket",
  "/var/run/dbus/system_bus_socket",
  "/run/systemd/private",
];

/** Variables that name a credential file or directory (KUBECONFIG may list several). */
const PATH_VARIABLES = [
  "SSH_AUTH_SOCK",
  "GNUPGHOME",
  "DOCKER_CONFIG",
  "KUBECONFIG",
  "AWS_SHARED_CREDENTIALS_FILE",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "CLOUDSDK_CONFIG",
  "NETRC",
];

/**
 * The paths to hide from commands, whether or not they exist: credential stores under `home`,
 * container-engine sockets (a read-only mount does not stop a connect), and the files that
 * credential variables in `env` point to. Absolute paths only, no duplicates. Pure.
 */
export function credentialPaths(
  home: string | undefined,
  env: Readonly<Record<string, string>>,
): string[] {
  const paths = [...SOCKETS];
  if (home && isAbsolute(home)) paths.push(...IN_HOME.map((entry) => join(home, entry)));
  // The whole runtime directory: the session D-Bus (`systemd-run --user` starts anything outside
  // the sandbox), agents, keyrings and container sockets all live there.
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir && isAbsolute(runtimeDir)) paths.push(runtimeDir);
  // rein's machine key (core/effects/machine_key.ts), where XDG_STATE_HOME moves it.
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) {
    paths.push(join(env.XDG_STATE_HOME, "rein"));
  }
  for (const dir of ["/run/user"]) paths.push(dir);
  for (const name of PATH_VARIABLES) {
    for (const path of (env[name] ?? "").split(":")) {
      if (isAbsolute(path)) paths.push(path);
    }
  }
  return [...new Set(paths)];
}
