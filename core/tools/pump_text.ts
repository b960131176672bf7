/**
 * Read a child's pipe to its end as text into `sink`, decoding UTF-8 across chunk boundaries. A
 * cancelled or broken pipe ends the output; what was read is kept. Never throws.
 */
export async function pumpText(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  sink: { append(text: string): void },
): Promise<void> {
  const decoder = new TextDecoder();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      sink.append(decoder.decode(value, { stream: true }));
    }
  } catch {
    // A cancelled or broken pipe ends the output; what was read is kept.
  }
  sink.append(decoder.decode());
}
