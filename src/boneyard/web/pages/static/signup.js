// Sign-up claims what this browser held before: its games (their seat tokens), its light
// identity and its puzzle ladder results. They go only to this server, in the form's hidden
// field.
import { loadPerson, proof } from "./identity.js";
import { loadProgress } from "./ladder_progress.js";
import { loadGames } from "./mygames.js";

const field = document.getElementById("claim");
const games = loadGames()
  .filter((game) => Array.isArray(game.tokens) && game.tokens.length)
  .slice(0, 200)
  .map((game) => ({ id: game.id, tokens: game.tokens.slice(0, 16) }));
field.value = JSON.stringify({ games, person: proof(loadPerson()), ladder: loadProgress() });
