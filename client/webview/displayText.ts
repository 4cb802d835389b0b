// Turns strings taken from users' YAML into text that is safe and honest to display.

/**
 * Bidirectional-control characters can make a name look like another one (the text is reordered on screen);
 * they are shown as visible `⟨U+202E⟩` markers instead of being obeyed.
 */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Control characters (C0 but tab and line feed, DEL, C1): invisible, and most of them forbidden in an SVG file. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function displayText(text: string, max = 4000): string {
  const clipped = text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
  return clipped.replace(bidiControls, marker).replace(controls, marker);
}

function marker(c: string): string {
  return `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** A single line for a box of limited width: cut at `max` characters with an ellipsis. */
export function shortText(text: string, max: number): string {
  const shown = displayText(text, Math.max(max * 4, 200));
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}
