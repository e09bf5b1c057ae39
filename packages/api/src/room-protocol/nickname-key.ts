// What two nicknames are compared by (RoomHub: nobody may pass for the room's owner or for another person inside).
// Two names that a reader of the member list or the chat cannot tell apart must give the same key: a guest named
// 'аlice' with a Cyrillic 'а', 'a lice', 'ALICE' or 'AIice' (capital I) reads as the owner 'alice'.
import { cleanNickname } from './text';

/** Whitespace of any kind and the invisible characters cleanNickname does not already remove (blank glyphs). */
const BLANK = /[\p{White_Space}\p{Z}\u2800\u3164\uFFA0\u115F\u1160]/gu;

/**
 * Combining marks on a Latin, Greek or Cyrillic letter (or on nothing): 'alicé', 'a̲lice', 'ålice'. Marks of other
 * scripts are part of the letter (Japanese dakuten, Devanagari vowel signs) and stay.
 */
const MARKS_ON_LATIN_LIKE =
  /(^|[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}])\p{M}+/gu;

/**
 * Letters of other scripts, and Latin letters with a stroke, that read as a Latin letter in the app's UI font
 * (a common subset of Unicode's confusables, UTS #39), as pairs of equally long strings: the look-alikes, then
 * the Latin letters they read as. Mapped before case folding, where the shape is known: capital Greek eta
 * looks like H and small eta like n; Cyrillic capital Pe looks like nothing Latin, its small form like n.
 */
const LOOK_ALIKE_PAIRS: [string, string][] = [
  // Cyrillic
  ['АаВЕеЅѕІіЈјКкМНһҺОоРрСсТУуҮүХхԀԁԚԛԜԝӀӏгпѴѵԌԍЬ', 'AaBEeSsIiJjKkMHhHOoPpCcTYyYyXxDdQqWwllrnVvGgb'],
  // Greek
  ['ΑαΒΕΖΗηΙιΚκΜΝνΟοΡρΤΥυΧχγωϲϹϳͿϜ', 'AaBEZHnIiKkMNvOoPpTYuXxywcCjJF'],
  // Latin letters that NFD does not split into a base and a mark
  ['ıɑɡɩǀłŁƚđĐħĦŧŦøØ', 'iagillLldDhHtToO'],
];
const LOOK_ALIKES = new Map(
  LOOK_ALIKE_PAIRS.flatMap(([from, to]) =>
    [...from].map((letter, index): [string, string] => [letter, to[index]!]),
  ),
);
const LOOK_ALIKE = new RegExp(`[${LOOK_ALIKE_PAIRS.map(([from]) => from).join('')}]`, 'gu');

/**
 * Shapes a reader cannot tell apart, after case folding: capital I and small l are one glyph in sans-serif type,
 * so i, l, 1 and | are one letter here, as are o and 0; 'rn' reads as 'm' and 'vv' as 'w'.
 */
const SAME_SHAPE: [RegExp, string][] = [
  [/[il1|]/g, 'l'],
  [/0/g, 'o'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];

function withoutMarks(text: string): string {
  return text.normalize('NFD').replace(MARKS_ON_LATIN_LIKE, '$1');
}

/**
 * The key two nicknames are compared by: compatibility forms folded (NFKC: full-width 'ＯＬＧＡ', 𝐎𝐥𝐠𝐚), invisible
 * characters and all whitespace removed, accents on Latin-like letters dropped, look-alike letters of Cyrillic
 * and Greek mapped to Latin, case folded, and shapes a reader cannot tell apart made one.
 */
export function nicknameKey(nickname: string): string {
  const unmarked = withoutMarks(cleanNickname(nickname.normalize('NFKC')).replace(BLANK, ''));
  const latin = unmarked.replace(LOOK_ALIKE, (letter) => LOOK_ALIKES.get(letter) ?? letter);
  // Full case folding, near enough: lower, upper, lower folds 'ẞ' and 'ß' to 'ss' and final sigma to sigma.
  let key = withoutMarks(latin.toLowerCase().toUpperCase().toLowerCase());
  for (const [shape, letter] of SAME_SHAPE) key = key.replace(shape, letter);
  return key.normalize('NFC');
}
