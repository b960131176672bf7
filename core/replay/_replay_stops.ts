/** The replay stopped at a divergence. */
export class Diverged extends Error {}

/** The recorded process died here: what the replayed loop would do next never happened. */
export class TapeEnded extends Error {}

/** Reading the recorded session failed: the replay stops, and the reading's error is thrown. */
export class ReadFailed extends Error {}
