import type { EventTable } from "./_payload.ts";

/**
 * A machine offers itself to run teammates (`rein host`): recorded by its host process when it
 * starts, as the envelope's session `host:<name>` and agent `host`. A lead places a teammate on it
 * with `spawn_teammate {host: NAME}` while its lease (`host:<name>`, `host`) is held. An input
 * from the world: replay feeds it at its place.
 */
export interface HostJoined {
  /** How leads name it (`spawn_teammate {host}`): `rein host --name`, else the machine's hostname. */
  name: string;
  /** Its working copy, absolute on that machine: where its teammates work. */
  folder: string;
  /** Its machine id (the machine key's), or null where it has none. */
  machine: string | null;
}

/** A host process ended (SIGTERM, Ctrl-C): its teammates were stopped, its lease released. */
export interface HostLeft {
  /** Always `"stopped"` today: a host that dies records nothing (its lease lapses). */
  reason: "stopped";
}

/** Hosts (machines that run teammates placed on them by a lead elsewhere). */
export interface HostEvents {
  "host.joined": HostJoined;
  "host.left": HostLeft;
}

/** The event types of HostEvents, for validation on read. */
export const HOST_EVENTS: EventTable<HostEvents> = {
  "host.joined": true,
  "host.left": true,
};
