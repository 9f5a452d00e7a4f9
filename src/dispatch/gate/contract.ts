/** Reading a contract (reference §3.2, DECISIONS D16): its bytes, and its size in characters (code points). */
import { readFileSync } from "node:fs";

export interface Contract {
  bytes: Buffer;
  /** The UTF-8 decoded text (invalid bytes as U+FFFD, a leading BOM dropped). */
  text: string;
  /** Unicode code points of the UTF-8 decoded text (a surrogate pair is one character). */
  chars: number;
}

export function readContract(path: string): Contract | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  const text = new TextDecoder().decode(bytes);
  let chars = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) chars--;
  }
  return { bytes, text, chars };
}

/** The contract's size in characters, null when it cannot be read. */
export function contractChars(path: string): number | null {
  return readContract(path)?.chars ?? null;
}
