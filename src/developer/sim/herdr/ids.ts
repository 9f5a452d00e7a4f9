/** herdr ids (docs/herdr-cli.md §3.12): bijective base-32 over `123456789ABCDEFGHJKMNPQRSTVWXYZ0`, never reused. */
const ALPHABET = "123456789ABCDEFGHJKMNPQRSTVWXYZ0";

export function base32(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`herdr id number must be >= 1 (got ${n})`);
  let out = "";
  let v = n;
  while (v > 0) {
    const r = (v - 1) % 32;
    out = ALPHABET[r]! + out;
    v = Math.floor((v - 1) / 32);
  }
  return out;
}

export function workspaceId(n: number): string {
  return `w${base32(n)}`;
}

export function tabId(ws: string, n: number): string {
  return `${ws}:t${base32(n)}`;
}

export function paneId(ws: string, n: number): string {
  return `${ws}:p${base32(n)}`;
}

/** `term_<hex micros><hex counter>` (src/terminal/id.rs). */
export function terminalId(nowMs: number, counter: number): string {
  return `term_${(nowMs * 1000).toString(16)}${counter.toString(16)}`;
}
