// Memory mode (Bond O Cones): a display choice of the game page, kept out of game.js.
const $ = (id) => document.getElementById(id);

// Memory mode: hide the values of one's own pieces except the peeked ones. Offered when the
// observation lists cones (as {seat, peeked} objects or as tokens like "b8+p": colour, value
// or ?, rings, p when peeked, s when spied); purely a display choice.
const CONE_TOKEN = /^([bw])([0-9]+|\?)([+#]?)(p?)(s?)$/;

function memoryPieces(v) {
  const cones = v?.observation?.cones;
  if (!cones || typeof cones !== "object" || v.seat === null) return null;
  const pieces = {};
  for (const [square, cone] of Object.entries(cones)) {
    if (typeof cone === "string") {
      const m = CONE_TOKEN.exec(cone);
      if (!m) return null;
      pieces[square] = { seat: m[1] === "b" ? 0 : 1, peeked: m[4] === "p" };
    } else if (cone && typeof cone === "object" && "peeked" in cone && "seat" in cone) {
      pieces[square] = cone;
    } else {
      return null;
    }
  }
  return Object.keys(pieces).length ? pieces : null;
}

/** Hide this seat's own cone values on ``board`` when the memory box is ticked. */
export function applyMemoryMode(v) {
  const pieces = memoryPieces(v);
  $("memory-mode").hidden = !pieces;
  if (!pieces || !$("memory").checked) return;
  for (const node of $("board").querySelectorAll("[data-cone]")) {
    const piece = pieces[node.getAttribute("data-cone")];
    if (!piece || piece.seat !== v.seat || piece.peeked) continue;
    node.setAttribute("data-value", "");
    for (const text of node.querySelectorAll("text")) text.textContent = "?";
    for (const title of node.querySelectorAll("title")) title.textContent = "Your cone (its value hidden in memory mode)";
  }
  const pre = $("board").querySelector("pre");
  if (pre) pre.textContent = "The text view is hidden in memory mode.";
}

