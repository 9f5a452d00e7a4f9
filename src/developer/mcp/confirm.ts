/**
 * Confirm tokens for destructive tools (D42): a first call returns the plan and a token bound, by an HMAC under a
 * key drawn when the server starts, to the tool, the canonical arguments and a hash of the plan. The token makes
 * the same call act once, while the plan is unchanged; a forged, reused, stale or expired token is refused.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sortedJson } from "../../lib/output.ts";

/** A token is good for this long after it was issued. */
export const TOKEN_TTL_MS = 15 * 60_000;

export type Refusal = "forged" | "reused" | "stale" | "expired" | "mismatch";

interface Issued {
  tool: string;
  args: string;
  plan: string;
  at: number;
  used: boolean;
}

/** The call's arguments in one canonical form (keys sorted, the token itself left out). */
export function canonicalArgs(args: Record<string, unknown>, drop: readonly string[] = []): string {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (!drop.includes(k) && v !== undefined && v !== null && v !== false) kept[k] = v;
  return sortedJson(kept);
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The plan's hash, without the keys that change from run to run (timestamps) at any depth. */
export function planHash(plan: unknown, volatile: readonly string[]): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!volatile.includes(k)) out[k] = strip(x);
      return out;
    }
    return v;
  };
  return sha256(sortedJson(strip(plan)));
}

export class Confirmations {
  private readonly key = randomBytes(32);
  private readonly issued = new Map<string, Issued>();

  constructor(private readonly now: () => number = Date.now) {}

  private mac(nonce: string, tool: string, args: string, plan: string): Buffer {
    return createHmac("sha256", this.key)
      .update(JSON.stringify([nonce, tool, args, plan]))
      .digest();
  }

  issue(tool: string, args: string, plan: string): string {
    const nonce = randomBytes(12).toString("base64url");
    this.issued.set(nonce, { tool, args, plan, at: this.now(), used: false });
    return `${nonce}.${this.mac(nonce, tool, args, plan).toString("base64url")}`;
  }

  /**
   * Check a token against this call and its fresh plan; a good token is spent (single use), and so is a stale one
   * (a new first call gets a new token for the new plan).
   */
  redeem(token: string, tool: string, args: string, plan: string): Refusal | undefined {
    const dot = token.indexOf(".");
    const nonce = dot > 0 ? token.slice(0, dot) : "";
    const got = Buffer.from(dot > 0 ? token.slice(dot + 1) : "", "base64url");
    const rec = this.issued.get(nonce);
    if (!rec) return "forged";
    const issuedMac = this.mac(nonce, rec.tool, rec.args, rec.plan);
    if (got.length !== issuedMac.length || !timingSafeEqual(got, issuedMac)) return "forged";
    if (rec.used) return "reused";
    if (rec.tool !== tool || rec.args !== args) return "mismatch";
    rec.used = true;
    if (this.now() - rec.at > TOKEN_TTL_MS) return "expired";
    const want = this.mac(nonce, tool, args, plan);
    if (!timingSafeEqual(got, want)) return "stale";
    return undefined;
  }
}

export const REFUSALS: Record<Refusal, string> = {
  forged: "the confirm token was not issued by this server (a new first call returns one)",
  reused: "the confirm token was already used (each token acts once; a new first call returns another)",
  stale: "the plan changed since the token was issued; nothing was done (call again without confirm for the new plan)",
  expired: `the confirm token is older than ${TOKEN_TTL_MS / 60_000} minutes; nothing was done (call again without confirm)`,
  mismatch: "the confirm token was issued for other arguments or another tool; nothing was done",
};
