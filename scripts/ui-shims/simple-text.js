// Bundled into dist/ui.cjs only (scripts/build.mjs, uiSimpleTextPlugin). Ink measures and splits
// every line it draws with string-width, slice-ansi and @alcalzone/ansi-tokenize, which build
// Intl.Segmenter objects and Unicode-property regular expressions (`\p{RGI_Emoji}` alone is ~12%
// of the instructions to the workbench's first frame) when they load. These stand-ins answer
// for "simple" text without them and hand everything else to the real thing, built on first use.
//
// Simple text: ASCII (but CR, which joins LF into one grapheme) and the characters of the table
// the build computes (every non-ASCII character the UI and Ink draw themselves: borders, glyphs,
// spinner frames), each one kept only if the real libraries agree that it is its own grapheme
// next to every other simple character and that its width adds up. So for simple text, one
// grapheme per UTF-16 unit and the sum of the widths are exactly what the libraries compute.
import simpleWidths from 'dial-simple-text:table';

const CARRIAGE_RETURN = 0x0d;

/** True when every character of `text` is simple (see above). */
export function isSimpleText(text) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x7f ? code === CARRIAGE_RETURN : simpleWidths[text[i]] === undefined) return false;
  }
  return true;
}

/** The width string-width gives simple text (with its default options and ANSI codes stripped). */
export function simpleTextWidth(text) {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    width += code < 0x7f ? (code >= 0x20 ? 1 : 0) : simpleWidths[text[i]];
  }
  return width;
}

/** Intl.Segmenter's segments of simple text: one grapheme per character. */
class SimpleSegments {
  constructor(text) {
    this.text = text;
  }
  containing(index = 0) {
    const at = Math.trunc(Number(index)) || 0;
    if (at < 0 || at >= this.text.length) return undefined;
    return { segment: this.text[at], index: at, input: this.text };
  }
  *[Symbol.iterator]() {
    for (let index = 0; index < this.text.length; index++) yield { segment: this.text[index], index, input: this.text };
  }
}

/** Stands in for `new Intl.Segmenter(locales, options)` (graphemes only); the real one is made on first non-simple text. */
export function graphemeSegmenter(locales, options) {
  if (options?.granularity !== undefined && options.granularity !== 'grapheme')
    return new Intl.Segmenter(locales, options);
  let real;
  return {
    segment(text) {
      const value = String(text);
      if (isSimpleText(value)) return new SimpleSegments(value);
      real ??= new Intl.Segmenter(locales, options);
      return real.segment(value);
    },
  };
}

/** Wraps a string-width: simple text is summed here; anything else, or other options, goes to `loadReal()`. */
export function stringWidthFor(loadReal, stripAnsi) {
  let real;
  return function stringWidth(text, options) {
    if (
      typeof text === 'string' &&
      (options === undefined || (options.ambiguousIsNarrow !== false && !options.countAnsiEscapeCodes))
    ) {
      const visible = text.includes('\u001B') || text.includes('\u009B') ? stripAnsi(text) : text;
      if (isSimpleText(visible)) return simpleTextWidth(visible);
    }
    real ??= loadReal();
    return real(text, options);
  };
}
