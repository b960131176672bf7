/** Test data: PNG headers, for the tests that read an image's type and size. */

/** `n` as four big-endian bytes. */
function be32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

/** The first bytes of a PNG of `width` × `height`: its signature and IHDR chunk. */
export function pngHeader(width: number, height: number): number[] {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const ihdr = [0x49, 0x48, 0x44, 0x52];
  return [...signature, ...be32(13), ...ihdr, ...be32(width), ...be32(height), 8, 6, 0, 0, 0];
}

/**
 * A PNG of `width` × `height` in base64: its header (nothing past it is read) and `pad` zero
 * bytes after it.
 */
export function pngBase64(width: number, height: number, pad = 0): string {
  let binary = "";
  for (const byte of [...pngHeader(width, height), ...new Array(pad).fill(0)]) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}
