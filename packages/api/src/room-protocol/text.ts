// Text people type into a room (nicknames, chat): characters nobody can see are removed before anyone is shown
// them, so a name or a message cannot hide a bidi override, a zero-width space or a copy of someone's name.

/**
 * Format characters (Cf: bidi embeddings, overrides and isolates, zero-width space and joiners, word joiner,
 * BOM…) and the other default-ignorable code points (Hangul fillers, variation selectors…): invisible, yet they
 * reorder, split or disguise the text around them.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** In chat, variation selectors stay: they pick an emoji's presentation and reorder nothing. */
const INVISIBLE_IN_CHAT = /(?![\uFE00-\uFE0F])[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Control characters other than the line feed. */
const CONTROL_BUT_NEWLINE = /[^\P{Cc}\n]/gu;

/** A nickname without its invisible characters (control characters are refused by ZNickname instead). */
export function cleanNickname(nickname: string): string {
  return nickname.replace(INVISIBLE, '');
}

/** A chat message keeps its line breaks; a tab reads as a space; other controls and invisibles go. */
export function cleanChatText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROL_BUT_NEWLINE, '')
    .replace(INVISIBLE_IN_CHAT, '');
}
