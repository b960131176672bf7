/** rein's version, as `rein --version` prints it (and a status line command reads it). */
export const REIN_VERSION = "0.1.0";
