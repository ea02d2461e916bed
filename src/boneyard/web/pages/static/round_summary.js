// The end of a round, on the table (games played in rounds: Bon-Bon). The view's
// round_summary is the last round that ended, in the seat's words; it opens beside the board
// until the player closes it or plays on in the next round, then folds above the move log.
const root = document.getElementById("game");
const closedKey = (summary) => `boneyard:round-closed:${root.dataset.gameId}:${summary.seq}`;

function ensureStyle() {
  if (document.getElementById("round-summary-style")) return;
  const link = document.createElement("link");
  link.id = "round-summary-style";
  link.rel = "stylesheet";
  link.href = "/static/round_summary.css";
  document.head.append(link);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function lines(summary) {
  return element("ul", {}, ...summary.lines.map((line) => element("li", {}, line)));
}

function playedOn(v, summary) {
  // The seat acted after the round ended: the next round is under way for it.
  return (v.log ?? []).some((entry) => entry.seq > summary.seq && entry.player === v.seat);
}

export function showRoundSummary(v) {
  const summary = v.round_summary;
  const open = document.getElementById("round-summary");
  const folded = document.getElementById("round-summary-folded");
  if (!summary) {
    open?.remove();
    folded?.remove();
    return;
  }
  ensureStyle();
  const closed = sessionStorage.getItem(closedKey(summary)) === "yes" || playedOn(v, summary);
  if (!closed) {
    folded?.remove();
    if (open?.dataset.seq === String(summary.seq)) return;
    const close = element("button", { type: "button", class: "secondary", "data-action": "close-round-summary" }, "Close");
    close.addEventListener("click", () => {
      sessionStorage.setItem(closedKey(summary), "yes");
      showRoundSummary(v);
    });
    const box = element(
      "section",
      { id: "round-summary", class: "round-summary", "data-round-summary": "", "data-seq": summary.seq, "aria-labelledby": "round-summary-title" },
      element("h2", { id: "round-summary-title" }, summary.title),
      lines(summary),
      close,
    );
    if (open) open.replaceWith(box);
    else document.getElementById("message")?.after(box); // under the prompt, beside the board
    return;
  }
  open?.remove();
  if (folded?.dataset.seq === String(summary.seq)) return;
  const details = element(
    "details",
    { id: "round-summary-folded", class: "round-summary-folded", "data-round-summary": "", "data-seq": summary.seq },
    element("summary", {}, summary.title),
    lines(summary),
  );
  if (folded) folded.replaceWith(details);
  else document.getElementById("log")?.before(details);
}
