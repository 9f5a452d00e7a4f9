/**
 * Word sets for redaction-inventory (§22). STOP: everyday English and programming words that are never private.
 * COMMON: kebab-case tokens every codebase has. FALLBACK_DICT: a small English list used when no system dictionary
 * (`/usr/share/dict/words`) exists, so the inventory still runs (with more candidates) on a minimal host.
 */

const STOP_TEXT = `
a about above after again all also an and any are as at back be because been before being below between both but by
can could did do does doing done down during each else end error false few file files first for from full get got had
has have having he her here his how if in into is it its just last let like line list make many may more most must my
name new next no not now null of off old on once one only or other our out over own path per run same see set she
should so some such than that the their them then there these they this those through to too true under until up use
used user using very was we were what when where which while who why will with without would yes you your
api app args async await bash bin bool boolean branch break build bun byte bytes call case cat catch cd char check
class cli cmd code commit config const context continue copy count create ctx current data date debug default delete
deps dev diff dir dist doc docs echo edit empty entry env eval event exec exit export fetch field filter fix flag
flags float format func function git github hash head help hook host html http https id import index info init input
int item items json key keys kind label len level lib link lint load local lock log loop main map master match merge
message meta method mode model module msg node npm num number object open option options output page param params
parse patch pid pipe port post print proc process prod push query read ready record ref regex release remote repo
request require reset response rest result return root route rule rules save schema scope script scripts self send
server session shell show size skip sort source spec src start state status stderr stdin stdout step stop str string
sub sync table tag task temp test tests text time timeout tmp todo token tool tools tree try type types uint unit
update url usage utf util value values var version view wait warn web word work worker write yaml yml zip
`;

const COMMON_TEXT = `
read-only built-in end-to-end pre-commit pre-push post-commit dry-run no-verify utf-8 x-api-key content-type
user-agent self-hosted open-source third-party first-party long-running well-known case-insensitive
case-sensitive non-zero non-empty up-to-date out-of-date follow-up set-up sign-in sign-out log-in log-out opt-in
opt-out add-on plug-in real-time run-time compile-time per-file one-line single-line multi-line
top-level low-level high-level sub-command sub-commands in-place in-process cross-process fail-closed fail-open
key-value name-value e-mail re-run co-author node-modules git-hooks no-color dev-dependencies
`;

const FALLBACK_TEXT = `
ability able accept access account across action active actual added adding address admin after agent ahead
allow allowed already always amount another answer apply approach area around array asked attempt author
available avoid aware based basic become begin behind being believe below better beyond block board body
bottom bound boxes bring broken brought budget buffer build built calls came cannot capture care carry cause
certain chain change changes channel chapter cheap check choice choose chosen claim clean clear client close
closed cloud collect column combine comment common compare complete concept confirm connect consider contain
content control convert correct cost costs cover craft cross daily death decide define delay deliver depend
deploy design detail detect device direct disable discuss display document domain double draft drive during
early easily effect either enable enough ensure entire equal event every exact example except expect explain
extend extra fails false family feature field final finally finish fixed floor focus follow force forget
forward found frame friend front future gather general given global going good great group guard guess guide
handle happen hard header heavy hidden history hold human ideas image impact include inside instead issue
items join keep kept known large later layer learn least leave legal light limit little live longer looks
lower machine major manage manual mark matter maybe mean means measure member memory merge middle might
minor missing model modern money month moved much multiple narrow native nearly need needs network never
night normal note notice number offer often order origin other outside owner pair panel paper parent part
party pass past pattern peace people person phase place plain plan point policy pool power prefer present
press price print prior private probe problem produce product program project proof proper public pull
purpose quality quick quiet raise range rather reach reason recent record reduce region remain remove
repeat reply report reserve resolve result review right round safe sample scale scene search second secret
secure select sense separate serve service seven share short should shown side sign signal simple since
single small smart solid solve sound space speak special split spring stable stage standard stay still
store story strong style submit success summary supply support sure surface system taken target team thing
think third those though three today together total touch track trade train travel treat trust truth twice
under unless upper usual valid value various video visible voice watch water ways week weight whole wide
window within world worry worth write wrong yield young
`;

const words = (t: string) => new Set(t.split(/\s+/).filter(Boolean));

export const STOP = words(STOP_TEXT);
export const COMMON = words(COMMON_TEXT);
export const FALLBACK_DICT = words(FALLBACK_TEXT);
