import assert from "node:assert/strict";
import {
  base64Bytes,
  formatBytes,
  IMAGE_TOKENS_UNKNOWN,
  imageFacts,
  imageTokens,
} from "./image_facts.ts";
import { pngHeader } from "./_png_for_test.ts";

function base64(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

const le16 = (n: number) => [n & 255, n >>> 8];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, n >>> 16];

Deno.test("an image's type and size are read from its own header, whatever type was declared", () => {
  assert.deepEqual(imageFacts(base64(pngHeader(640, 480))), {
    mediaType: "image/png",
    width: 640,
    height: 480,
  });
  const gif = [..."GIF89a"].map((c) => c.charCodeAt(0));
  assert.deepEqual(imageFacts(base64([...gif, ...le16(300), ...le16(200), 0, 0, 0])), {
    mediaType: "image/gif",
    width: 300,
    height: 200,
  });
  // A JPEG whose frame header (SOF0) follows an APP0 segment.
  const jpeg = [
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    ...new Array(14).fill(0),
    0xff,
    0xc0,
    0,
    17,
    8,
    ...[0x01, 0x2c],
    ...[0x01, 0x90],
    3,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  assert.deepEqual(imageFacts(base64(jpeg)), {
    mediaType: "image/jpeg",
    width: 400,
    height: 300,
  });
  const riff = (chunk: string, body: number[]) => [
    ..."RIFF".split("").map((c) => c.charCodeAt(0)),
    0,
    0,
    0,
    0,
    ..."WEBP".split("").map((c) => c.charCodeAt(0)),
    ...chunk.split("").map((c) => c.charCodeAt(0)),
    ...body,
  ];
  const vp8x = riff("VP8X", [10, 0, 0, 0, 0, 0, 0, 0, ...le24(1023), ...le24(767), 0]);
  assert.deepEqual(imageFacts(base64(vp8x)), {
    mediaType: "image/webp",
    width: 1024,
    height: 768,
  });
});

Deno.test("data that is not base64 or not a PNG, JPEG, GIF or WebP image has no facts", () => {
  assert.equal(imageFacts("not base64!"), undefined);
  assert.equal(imageFacts(base64([..."<svg></svg>"].map((c) => c.charCodeAt(0)))), undefined);
  assert.equal(imageFacts(""), undefined);
});

Deno.test("an image counts as width × height / 750 tokens, scaled as the API scales it; 1,600 unknown", () => {
  assert.equal(imageTokens({ mediaType: "image/png", width: 20, height: 20 }), 1);
  assert.equal(imageTokens({ mediaType: "image/png", width: 1000, height: 1000 }), 1334);
  // A large screenshot is scaled to about 1.15 megapixels first.
  const big = imageTokens({ mediaType: "image/png", width: 4000, height: 3000 });
  assert.ok(big >= 1530 && big <= 1540, String(big));
  assert.equal(imageTokens({ mediaType: "image/jpeg" }), IMAGE_TOKENS_UNKNOWN);
  assert.equal(imageTokens(undefined), 1600);
});

Deno.test("sizes of base64 data read as bytes, KB and MB", () => {
  assert.equal(base64Bytes(base64([1, 2, 3, 4])), 4);
  assert.equal(base64Bytes(base64([1, 2, 3])), 3);
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(12 * 1024 + 100), "12 KB");
  assert.equal(formatBytes(1.5 * 1024 * 1024), "1.5 MB");
});
