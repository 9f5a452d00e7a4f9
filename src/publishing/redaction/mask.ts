/**
 * Masking (reference §21 step 9): a finding's snippet never carries the secret. Each found span is replaced, keeping
 * only a recognisable public prefix (`AKIA`, `sk-ant-`, `Bearer `...); then a second pass applies the reference's
 * generic masks to the whole line, so a token on the same line that no rule reported is hidden too.
 */

export interface Span {
  start: number;
  end: number;
  rule: string;
}

const MAX_SNIPPET = 160;
const STARS = "********";

/** The public part of a secret worth keeping (it says what kind of secret it was), or "". */
function keptPrefix(secret: string): string {
  const m = /^(AKIA|ASIA|ABIA|ACCA|sk-ant-|sk-|[rs]k_live_|whsec_|xox[a-z]-|xapp-|gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt|oas)-|npm_|pypi-|AIza|eyJ|Bearer |-----BEGIN [A-Z0-9 _-]*PRIVATE KEY(?: BLOCK)?-----|\/Users\/|\/home\/)/.exec(secret);
  if (!m) return "";
  if (m[1]!.startsWith("gh")) return "gh?_";
  if (m[1]!.startsWith("xox")) return "xox?-";
  return m[1]!;
}

export function maskSecret(secret: string): string {
  const prefix = keptPrefix(secret);
  if (/^A[KSBC][IC]A$/.test(prefix)) return prefix + "*".repeat(Math.max(0, secret.length - 4));
  return prefix + STARS;
}

/** The reference's sed masks, applied to whatever is left of the line. */
const GENERIC: Array<[RegExp, string | ((m: string, ...g: string[]) => string)]> = [
  [/AKIA[0-9A-Z]{16}/g, (m) => `AKIA${"*".repeat(m.length - 4)}`],
  [/gh[pousr]_[A-Za-z0-9]+/g, `gh?_${STARS}`],
  [/xox[a-z]-[A-Za-z0-9-]+/g, `xox?-${STARS}`],
  [/sk-ant-[A-Za-z0-9_-]+/g, `sk-ant-${STARS}`],
  [/sk-(?!ant-)[A-Za-z0-9_-]{8,}/g, `sk-${STARS}`],
  [/github_pat_[A-Za-z0-9_]+/g, `github_pat_${STARS}`],
  [/gl(pat|ptt|dt|rt|oas)-[A-Za-z0-9_-]{8,}/g, (_m, k) => `gl${k}-${STARS}`],
  [/([rs]k_live_|whsec_|npm_|pypi-)[A-Za-z0-9_-]{8,}/g, (_m, k) => `${k}${STARS}`],
  [/AIza[0-9A-Za-z_-]{20,}/g, `AIza${STARS}`],
  [/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_.-]+/g, `eyJ${STARS}`],
  [/-----BEGIN ([A-Z0-9 _-]*)PRIVATE KEY( BLOCK)?-----(?:(?!-----END)[\s\S])*(-----END [A-Z0-9 _-]*PRIVATE KEY( BLOCK)?-----)?/g, (_m, k, b) => `-----BEGIN ${k}PRIVATE KEY${b ?? ""}-----${STARS}`],
  [/Bearer [A-Za-z0-9._~+/=-]{8,}/g, `Bearer ${STARS}`],
  [/=\s*(["'])[^"'\s*]{6,}\1/g, '="***"'],
];

/**
 * Issue 25 §2: context is printed only once every secret-like run on it is masked, found or not: passwords in
 * URLs, after `curl -u user:`, after a netrc `password`, any value assigned to a credential-like name, and every
 * run of token characters that looks random (16+ characters of some entropy, or 8+ mixing letters and digits).
 */
const STRONG: Array<[RegExp, string | ((m: string, ...g: string[]) => string)]> = [
  [/(:\/\/[^\s:@/'"`<>]*:)[^\s@/'"`<>]+@/g, `$1${STARS}@`],
  [/((?:^|\s)(?:-u|--user)(?:[ =]{1,3}|)["']?[^\s:"']*:)[^\s"']+/g, `$1${STARS}`],
  [/(\bpassword[ \t]+)(?![=:])\S+/gi, `$1${STARS}`],
  [/((?:pass|pwd|secret|token|key|auth|credential|bearer|basic)[A-Za-z0-9_.-]*["']?[ \t]{0,5}(?:=|:|:=|=>)[ \t]{0,5}(?:\\?["'])?)(?![^\s"'`,;<>]*\*{4})[^\s"'`,;<>]{3,}/gi, `$1${STARS}`],
];

const RUN = /[A-Za-z0-9+/=_~.%-]{8,}/g;

/** Whether a run of token characters looks like a secret rather than a word, a path or a number. */
function secretLike(run: string): boolean {
  if (run.includes("****")) return false;
  const digits = /[0-9]/.test(run);
  const upper = /[A-Z]/.test(run);
  const lower = /[a-z]/.test(run);
  if (!digits && !(upper && lower)) return false;
  if (!upper && !lower) return false;
  if (run.length >= 16) return entropyOf(run) >= 3.0;
  return digits && upper && lower;
}

function entropyOf(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) h -= (c / s.length) * Math.log2(c / s.length);
  return h;
}

export function maskGeneric(line: string): string {
  let out = line;
  for (const [re, rep] of GENERIC) out = out.replace(re, rep as string);
  for (const [re, rep] of STRONG) out = out.replace(re, rep as string);
  return out.replace(RUN, (run) => (secretLike(run) ? maskSecret(run) : run));
}

/** Masks `spans` in `line`, then the generic patterns, then cuts around the first span to 160 characters. */
export function maskLine(line: string, spans: Span[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  let firstMasked = -1;
  for (const s of sorted) {
    if (s.end <= at) continue;
    const start = Math.max(s.start, at);
    out += line.slice(at, start);
    if (firstMasked < 0) firstMasked = out.length;
    out += maskSecret(line.slice(s.start, s.end));
    at = s.end;
  }
  out += line.slice(at);
  out = maskGeneric(out).trim();
  if (out.length <= MAX_SNIPPET) return out;
  // A long (minified) line: keep a window that starts a little before the first masked secret.
  const from = Math.max(0, Math.min(firstMasked - 40, out.length - MAX_SNIPPET));
  return out.slice(from, from + MAX_SNIPPET);
}

/** The first line of a match with the secret's part (`from`..`to`, relative to the match) masked. */
export function maskMatch(match: string, from: number, to: number): string {
  const out = maskGeneric(match.slice(0, Math.max(0, from)) + maskSecret(match.slice(Math.max(0, from), to)) + match.slice(Math.max(to, from)));
  return out.length > MAX_SNIPPET ? out.slice(0, MAX_SNIPPET) : out;
}
