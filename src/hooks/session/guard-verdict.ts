/** product-path-guard's shared shapes: the policy a Bash check runs under and the verdict it returns. */
import type { ProductRoots } from "./guard-paths.ts";
import type { LexEnv } from "../../lib/shell-lex.ts";

export interface GuardPolicy {
  product: ProductRoots;
  failClosed: boolean;
  /** Fail-closed mode: command prefixes (token lists) that may touch the product. */
  allowlist: string[][];
  lex: LexEnv;
}

export interface Verdict {
  block: boolean;
  reason: string;
  commandClass: string;
  targetScope: "product" | "outside";
}

export const deny = (reason: string, commandClass: string): Verdict => ({ block: true, reason, commandClass, targetScope: "product" });
