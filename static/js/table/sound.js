// Small sounds made with WebAudio (no files to load): a chime when it is your turn, a tick
// when a card is played. Off until the player turns them on; the choice is remembered.
const KEY = "salon.sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function tone(frequency, seconds, gain = 0.08) {
  if (!soundOn()) return;
  context ??= new AudioContext();
  const osc = context.createOscillator();
  const amp = context.createGain();
  osc.frequency.value = frequency;
  amp.gain.setValueAtTime(gain, context.currentTime);
  amp.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + seconds);
  osc.connect(amp).connect(context.destination);
  osc.start();
  osc.stop(context.currentTime + seconds);
}

export const sounds = {
  yourTurn: () => { tone(660, 0.15); setTimeout(() => tone(880, 0.2), 120); },
  card: () => tone(320, 0.06, 0.05),
  win: () => { tone(523, 0.15); setTimeout(() => tone(659, 0.15), 120); setTimeout(() => tone(784, 0.3), 240); },
};
