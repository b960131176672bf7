/**
 * The OS sandbox bash runs in: bwrap with the workspace writable, a private /tmp, the rest of the
 * machine read-only, the log directory read-only, credentials hidden, the network per setting,
 * and a PID namespace per call.
 *
 * @module
 */
export * from "./sandbox_settings.ts";
export * from "./bwrap_args.ts";
export * from "./bwrap_sandbox.ts";
export * from "./credential_paths.ts";
export * from "./resolve_sandbox.ts";
