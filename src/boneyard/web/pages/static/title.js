// The tab's title, shared by the game's scripts: an offer waiting ("Draw offered — Obonto")
// comes first, else whose move it is ("Your move · Obonto"), for a game left in another tab.

const gameTitle = document.title;
let turn = "";
let offer = "";

function show() {
  document.title = offer ? `${offer} — ${gameTitle}` : turn + gameTitle;
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
