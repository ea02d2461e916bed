// A board drawing sent as what changed: the other half of web/play/drawing.py. The first view of
// a socket carries the whole drawing; later ones carry its lines as pieces, each a new line (a
// string) or [start, count], a run of the lines of the drawing this page already holds.

/** The drawing `pieces` describe, given the drawing `held` they were made against. */
export function rebuiltDrawing(held, pieces) {
  const old = held.split("\n");
  const lines = [];
  for (const piece of pieces) {
    if (typeof piece === "string") lines.push(piece);
    else for (let i = piece[0]; i < piece[0] + piece[1]; i += 1) lines.push(old[i]);
  }
  return lines.join("\n");
}
