import { isAbsolute, join } from "node:path";

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
];

/** Sockets that hand out root (container engines) regardless of a read-only mount. */
const SOCKETS = ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock"];

/** Under `$XDG_RUNTIME_DIR`: container engines, agents and keyrings. */
const IN_RUNTIME_DIR = ["docker.sock", "podman", "gnupg", "keyring", "ssh-agent.socket"];

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
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir && isAbsolute(runtimeDir)) {
    paths.push(...IN_RUNTIME_DIR.map((entry) => join(runtimeDir, entry)));
  }
  for (const name of PATH_VARIABLES) {
    for (const path of (env[name] ?? "").split(":")) {
      if (isAbsolute(path)) paths.push(path);
    }
  }
  return [...new Set(paths)];
}
