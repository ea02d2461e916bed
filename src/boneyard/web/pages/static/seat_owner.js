// A seat opened by its link while signed in becomes the account's, so that the account finds
// it on every device (and a rated game knows who sits there). Only a page of one seat asks:
// whoever holds every seat of a game (its creator at one screen) gives none of them away.
const root = document.getElementById("game");
const tokens = (root.dataset.tokens ?? "").split(",").filter(Boolean);
if (tokens.length === 1 && document.querySelector("header.top .signed-in")) {
  fetch(`/api/games/${encodeURIComponent(root.dataset.gameId)}/account`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokens[0] }),
  }).catch(() => {
    // Offline: asked again the next time the page opens.
  });
}
