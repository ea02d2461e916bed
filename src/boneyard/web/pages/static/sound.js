// Sounds of the table, made here with Web Audio (no files): a move, your turn, a capture, the
// end of the game, a game that began for you. A switch beside the board mutes them, and the
// browser remembers it.

const MUTED_KEY = "boneyard.muted";

/** Each sound: its notes as [frequency in Hz, start in s, length in s], and the wave. */
const SOUNDS = {
  move: { wave: "triangle", notes: [[520, 0, 0.08]] },
  capture: { wave: "square", notes: [[330, 0, 0.07], [220, 0.07, 0.12]] },
  turn: { wave: "sine", notes: [[660, 0, 0.1], [880, 0.11, 0.14]] },
  end: { wave: "sine", notes: [[523, 0, 0.14], [659, 0.15, 0.14], [784, 0.3, 0.28]] },
  low: { wave: "square", notes: [[880, 0, 0.06], [880, 0.12, 0.06]] }, // your clock runs low
  start: { wave: "sine", notes: [[392, 0, 0.12], [523, 0.13, 0.12], [784, 0.26, 0.3]] }, // a game began for you
};

let context = null;
let played = 0; // sounds played since the page opened (for tests: see document's data-sounds)

export function muted() {
  try {
    return localStorage.getItem(MUTED_KEY) === "yes";
  } catch {
    return false;
  }
}

function setMuted(value) {
  try {
    if (value) localStorage.setItem(MUTED_KEY, "yes");
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    // storage switched off: the switch holds for this page only
  }
}

document.documentElement.dataset.sounds = "0";

/** Play ``kind`` (move, capture, turn, end, low, start) unless muted. */
export function play(kind) {
  const sound = SOUNDS[kind];
  if (!sound || muted()) return;
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return;
  try {
    context ??= new Context();
    if (context.state === "suspended") context.resume().catch(() => {});
    const start = context.currentTime;
    for (const [frequency, at, length] of sound.notes) {
      const oscillator = context.createOscillator();
      const envelope = context.createGain();
      oscillator.type = sound.wave;
      oscillator.frequency.value = frequency;
      // A short attack and an exponential fall: a click of a piece, not a beep.
      envelope.gain.setValueAtTime(0.0001, start + at);
      envelope.gain.exponentialRampToValueAtTime(0.18, start + at + 0.01);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(envelope).connect(context.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  } catch {
    return; // no audio device: the game goes on in silence
  }
  played += 1;
  document.documentElement.dataset.sounds = String(played);
  document.documentElement.dataset.lastSound = kind;
}

/** Wire the mute switch (a button with aria-pressed) to the remembered choice. */
export function wireMuteSwitch(button) {
  if (!button) return;
  const show = () => {
    const off = muted();
    // The name stays "Mute sounds"; whether it is pressed says whether they are muted.
    button.setAttribute("aria-pressed", off ? "true" : "false");
    button.title = off ? "The sounds are muted: press to hear them" : "Press to mute the sounds";
  };
  button.addEventListener("click", () => {
    setMuted(!muted());
    show();
  });
  show();
}
