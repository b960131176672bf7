import type { ImageSource } from "../../events/event_types.ts";

/** What an image's own bytes say it is: the type the Messages API knows it by, and its size. */
export interface ImageFacts {
  mediaType: ImageSource["media_type"];
  /** Pixels, when the header holds them where looked for (absent for a JPEG with a late frame). */
  width?: number;
  height?: number;
}

/** The image types the Messages API reads. */
export const IMAGE_MEDIA_TYPES: readonly ImageSource["media_type"][] = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
];

/** Tokens an image is counted as when its size is not known: the most the API makes of one. */
export const IMAGE_TOKENS_UNKNOWN = 1_600;

/** Base64 characters decoded to find a JPEG's frame header (192 KB of bytes). */
const HEAD_CHARS = 256 * 1024;

/**
 * The type and size of the image in `base64`, from its first bytes (PNG, JPEG, GIF or WebP
 * signatures and headers); undefined when the data is not valid base64 or not one of those
 * types. The type is the bytes', whatever a sender declared, since the API refuses a mismatch.
 * Pure.
 */
export function imageFacts(base64: string): ImageFacts | undefined {
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  let head: string;
  try {
    head = atob(base64.slice(0, HEAD_CHARS));
  } catch {
    return undefined;
  }
  const byte = (at: number) => head.charCodeAt(at);
  const be16 = (at: number) => (byte(at) << 8) | byte(at + 1);
  const le16 = (at: number) => byte(at) | (byte(at + 1) << 8);
  const le24 = (at: number) => le16(at) | (byte(at + 2) << 16);
  if (head.startsWith("\x89PNG\r\n\x1a\n") && head.length >= 24) {
    return sized("image/png", be16(16) * 65536 + be16(18), be16(20) * 65536 + be16(22));
  }
  if (/^GIF8[79]a/.test(head) && head.length >= 10) {
    return sized("image/gif", le16(6), le16(8));
  }
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP" && head.length >= 30) {
    const chunk = head.slice(12, 16);
    if (chunk === "VP8 ") return sized("image/webp", le16(26) & 0x3fff, le16(28) & 0x3fff);
    if (chunk === "VP8L") {
      const bits = byte(21) | (byte(22) << 8) | (byte(23) << 16) | (byte(24) << 24);
      return sized("image/webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (chunk === "VP8X") return sized("image/webp", le24(24) + 1, le24(27) + 1);
    return { mediaType: "image/webp" };
  }
  if (head.startsWith("\xff\xd8\xff")) {
    // Segments from the start: the first frame header (SOFn) holds the size.
    for (let at = 2; at + 9 < head.length && byte(at) === 0xff;) {
      const marker = byte(at + 1);
      const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 &&
        marker !== 0xcc;
      if (frame) return sized("image/jpeg", be16(at + 7), be16(at + 5));
      at += 2 + be16(at + 2);
    }
    return { mediaType: "image/jpeg" };
  }
  return undefined;
}

/**
 * Tokens the model reads an image as, as Anthropic documents it: about width × height / 750,
 * after the API scales an image down to at most 1568 pixels on its long side and about 1.15
 * megapixels; {@link IMAGE_TOKENS_UNKNOWN} when the size is not known. Pure.
 */
export function imageTokens(facts: ImageFacts | undefined): number {
  const { width, height } = facts ?? {};
  if (!width || !height) return IMAGE_TOKENS_UNKNOWN;
  const scale = Math.min(
    1,
    1568 / Math.max(width, height),
    Math.sqrt(1_150_000 / (width * height)),
  );
  return Math.max(1, Math.ceil((width * scale) * (height * scale) / 750));
}

/** The bytes `base64` holds. Pure. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** A size as people read it: `512 B`, `12 KB`, `1.5 MB`. Pure. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function sized(mediaType: ImageFacts["mediaType"], width: number, height: number): ImageFacts {
  return width > 0 && height > 0 ? { mediaType, width, height } : { mediaType };
}
