// The tab's title, shared by the game's scripts: an offer waiting ("Draw offered — Obonto")
// comes first, then news of the page ("Your arena game started — Obonto"), else whose move it
// is ("Your move · Obonto"), for a game left in another tab. On every page, the number of
// games waiting for this person's move comes before it all ("(2) My games", static/turns.js).

const gameTitle = document.title;
let turn = "";
let offer = "";
let notice = "";
let waiting = "";

function show() {
  const first = offer || notice;
  document.title = waiting + (first ? `${first} — ${gameTitle}` : turn + gameTitle);
}

/** ``words``: "Your move · ", "Game over · " or "". */
export function setTurnTitle(words) {
  turn = words;
  show();
}

/** ``words``: what waits for this person ("Draw offered"), or "" when nothing does. */
export function setOfferTitle(words) {
  offer = words;
  show();
}

/** ``words``: news of this page ("Your arena game started"), or "" once it is old. */
export function setNoticeTitle(words) {
  notice = words;
  show();
}

/** ``words``: "(2) " when two games wait for this person's move, or "". */
export function setWaitingTitle(words) {
  waiting = words;
  show();
}
