/** Hidden: `mogui tracks [--json] <register|update|close|list> ...`. */
import { groupRouter } from "../../src/succession/route.ts";

export default groupRouter("tracks", ["register", "update", "close", "list"], "The work ledger of tracks: register, update, close, list.");
