import type { EventTable } from "./_payload.ts";

/**
 * A task was added to the workspace's task graph. `id` is the next number of the graph as the
 * creating process saw it under the log's lock (the n-th task created is task n); a task created
 * with an id already taken is ignored by the fold.
 */
export interface TaskCreated {
  id: number;
  /** A short title, in the imperative ("Write the parser"). */
  subject: string;
  /** What needs to be done; may be empty. */
  description: string;
  /** Tasks that must be completed before this one can be claimed. */
  blockedBy: number[];
  /**
   * The role of the teammate meant to do it (`reviewer`): an idle teammate claims it by itself
   * only when its own role is that one. Absent: any agent (older logs have none).
   */
  role?: string;
}

/**
 * The agent that recorded it (the envelope's session and agent) claimed task `id`: it is in
 * progress and that agent owns it. Only the first valid claim of a task counts (it must be
 * pending, unowned, and every task it is blocked by completed); the fold ignores later ones.
 */
export interface TaskClaimed {
  id: number;
}

/** The task's owner (the envelope's session and agent) completed it. */
export interface TaskCompleted {
  id: number;
}

/**
 * A task was changed: its subject or description replaced, dependencies added or removed. A
 * change that would make the graph cyclic, or name a task that does not exist, is ignored.
 */
export interface TaskUpdated {
  id: number;
  subject?: string;
  description?: string;
  addBlockedBy?: number[];
  removeBlockedBy?: number[];
}

/** A task that was not completed was cancelled: it will not be done. */
export interface TaskCancelled {
  id: number;
  /** Why, in the canceller's words. */
  reason?: string;
}

/**
 * The task's owner (the envelope's session and agent) handed back a task it claimed and did not
 * finish: it is pending and unowned again, claimable by anyone.
 */
export interface TaskReleased {
  id: number;
  /** Why, in the owner's words. */
  reason: string;
  /**
   * True when its owner, a teammate, handed it back as it stopped after the idle timeout
   * (recorded by the teammate's process outside its loop; replay feeds it).
   */
  idle?: true;
}

/** The workspace's task graph (s12): every session and process of the workspace shares it. */
export interface TaskEvents {
  "task.created": TaskCreated;
  "task.claimed": TaskClaimed;
  "task.completed": TaskCompleted;
  "task.updated": TaskUpdated;
  "task.cancelled": TaskCancelled;
  "task.released": TaskReleased;
}

/** The event types of TaskEvents, for validation on read. */
export const TASK_EVENTS: EventTable<TaskEvents> = {
  "task.created": true,
  "task.claimed": true,
  "task.completed": true,
  "task.updated": true,
  "task.cancelled": true,
  "task.released": true,
};
