/** How many leading bytes are searched for a NUL byte to spot binary files (as git does). */
export const BINARY_SNIFF_BYTES = 8192;

/** The text of a file, or why it is not text. */
export type TextFile =
  | { ok: true; text: string }
  | { ok: false; reason: "binary" | "not-utf8" };

/** True when `bytes` holds a NUL byte within the first 8 KiB. Pure. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Decodes a file's bytes as UTF-8 text, refusing binary data (a NUL byte in the first 8 KiB) and
 * invalid UTF-8. A leading byte-order mark is kept. Pure; never throws.
 */
export function decodeText(bytes: Uint8Array): TextFile {
  if (looksBinary(bytes)) return { ok: false, reason: "binary" };
  try {
    return {
      ok: true,
      text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes),
    };
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
}

/** The model-facing explanation of why a file cannot be read as text. Pure. */
export function notTextMessage(displayPath: string, reason: "binary" | "not-utf8"): string {
  return reason === "binary"
    ? `Cannot read "${displayPath}": it is a binary file, not text`
    : `Cannot read "${displayPath}": it is not valid UTF-8 text (probably a binary file)`;
}
