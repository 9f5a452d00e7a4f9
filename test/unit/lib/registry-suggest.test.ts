/** "did you mean": the edit distance counts a swap of two neighbours as one edit, so `lsit` finds `list`. */
import { expect, test } from "bun:test";
import { distance, suggest } from "../../../src/lib/registry.ts";

test("distance: insert, delete, substitute and a swap of neighbours each cost one", () => {
  expect(distance("list", "list")).toBe(0);
  expect(distance("lst", "list")).toBe(1);
  expect(distance("lisst", "list")).toBe(1);
  expect(distance("lisr", "list")).toBe(1);
  expect(distance("lsit", "list")).toBe(1);
  expect(distance("jsno", "json")).toBe(1);
  expect(distance("", "abc")).toBe(3);
  expect(distance("kitten", "sitting")).toBe(3);
});

test("suggest: the closest candidate within the limit, else none", () => {
  expect(suggest("lsit", ["list", "register", "close"])).toBe("list");
  expect(suggest("jsno", ["json", "ledger"])).toBe("json");
  expect(suggest("zzzz", ["list", "json"])).toBeUndefined();
});
