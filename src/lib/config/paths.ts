/** Config-file paths: `~` expansion (src/probes/resolve.ts expandHome), then relative to the config file's directory. */
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../paths.ts";

/** `~` and `~/x` against `home`; an absolute result is kept as written, a relative one resolves against `base`. */
export function expandUserPath(base: string, p: string, home: string): string {
  const e = expandHome({ env: { HOME: home } }, p);
  return isAbsolute(e) ? e : resolve(base, e);
}
