// A rated game says so above the board, and at its end how each account's rating moved
// ("Ann 1512? (+12)"), read from the server once the game is over.
const root = document.getElementById("game");
const note = document.getElementById("rating-note");
let shownEnd = false;

function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "\u00b10";
}

async function look() {
  let rating;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(root.dataset.gameId)}/rating`);
    if (!response.ok) return;
    rating = await response.json();
  } catch {
    return; // offline: the note waits for the next look
  }
  if (!rating.rated) return;
  note.hidden = false;
  if (!rating.settled) {
    // "repeated": these two accounts' games of the day are used, said before the first move
    note.textContent = rating.unrated_words ?? "Rated game: the ratings move with the result.";
    if (!rating.unrated_words && root.dataset.tokens && !document.querySelector("header.top .signed-in")) {
      // a guest holding a seat of a rated game (an invite link): only accounts count
      const signIn = document.createElement("a");
      signIn.href = "/login";
      signIn.textContent = "Sign in";
      note.replaceChildren(
        "Rated game between accounts: ",
        signIn,
        " (or sign up), then open this link again to take your seat. Played without an account, it counts for nobody.",
      );
    }
    return;
  }
  if (!rating.changes) {
    if (root.dataset.terminal !== "yes") return; // why it counted for nobody: the view says
    shownEnd = true;
    note.textContent =
      rating.unrated_words ??
      (root.dataset.ending === "abort"
        ? "Not rated: the game was called off, so it counts for nobody."
        : "Rated game, but it counted for nobody.");
    return;
  }
  shownEnd = true;
  const parts = rating.changes.map((change) => {
    const item = document.createElement("span");
    item.className = "rating-change";
    item.dataset.name = change.name;
    item.dataset.change = String(change.change);
    item.textContent = `${change.name} ${change.shown} (${signed(change.change)})`;
    return item;
  });
  note.replaceChildren("New ratings: ", ...parts.flatMap((part, i) => (i ? [", ", part] : [part])));
}

// The game's end is committed with its ratings (one transaction): look again once it shows.
// Around the start (an opponent joined, the first moves) look again too: whether the game
// will count ("repeated") is known once both seats are taken, and said before it starts.
let lookedAt = "";
new MutationObserver(() => {
  if (root.dataset.terminal === "yes" && !shownEnd) {
    look();
    return;
  }
  const moment = `${root.dataset.seq}:${root.dataset.mine}`;
  if (!shownEnd && Number(root.dataset.seq) < 3 && moment !== lookedAt) {
    lookedAt = moment;
    look();
  }
}).observe(root, { attributes: true, attributeFilter: ["data-terminal", "data-seq", "data-mine"] });
look();
