/** The variable that sets how long a PostgreSQL store's leases outlive their holder's last renewal. */
export const LEASE_MS_ENV = "REIN_LEASE_MS";

/** The default: the store's own (15 s). */
const DEFAULT_LEASE_MS = 15_000;

/**
 * How long a lease of a PostgreSQL store outlives its holder's last renewal, from
 * `REIN_LEASE_MS` (`given`): a whole number of milliseconds from 300 to an hour, else the store's
 * default of 15 s. Every process of one log should use the same: it bounds how long a dead lead's
 * teammates on another host (`rein host`) go on, and how soon a dead process's session can be
 * resumed. Pure.
 */
export function leaseMsOf(given: string | undefined): number {
  const ms = Number(given);
  return Number.isInteger(ms) && ms >= 300 && ms <= 3_600_000 ? ms : DEFAULT_LEASE_MS;
}
