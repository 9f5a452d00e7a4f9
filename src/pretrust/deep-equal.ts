/**
 * Structural equality for parsed TOML documents: key order does not matter, Dates compare by time, NaN equals NaN,
 * and any other class instance (a parser's local date or time) must have the same class and print the same.
 */
function plain(x: object): boolean {
  const p = Object.getPrototypeOf(x);
  return p === Object.prototype || p === null;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (plain(a) !== plain(b)) return false;
  if (!plain(a) && (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || String(a) !== String(b))) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && deepEqual(ra[k], rb[k]));
}
