// Messages of the `chat/…` domain.
import { z } from 'zod';
import { CHAT_MAX_LENGTH } from './limits';
import { ZMemberId } from './member';
import { cleanChatText } from './text';

/**
 * A message's length as ZChatText counts it against CHAT_MAX_LENGTH (cleaned, trimmed, in UTF-16 code units), so
 * the composer's counter and the server's refusal agree to the character.
 */
export function chatTextLength(text: string): number {
  return cleanChatText(text).trim().length;
}

/** Refused above the limit, never cut: a cut message says something its author did not write. */
export const ZChatText = z
  .string()
  .overwrite(cleanChatText)
  .trim()
  .min(1, { error: 'Please enter a message' })
  .max(CHAT_MAX_LENGTH, { error: `A message has at most ${CHAT_MAX_LENGTH} characters` });

export const ZChatEntry = z.object({
  id: z.string(),
  memberId: ZMemberId,
  /** Kept with the message: the author may have left by the time a joiner reads it. */
  nickname: z.string(),
  text: z.string(),
  /** Epoch milliseconds. */
  at: z.number(),
});

// Client → server

export const ZChatSend = z.object({ type: z.literal('chat/send'), text: ZChatText });

// Server → client

export const ZChatMessage = z.object({ type: z.literal('chat/message'), message: ZChatEntry });
/** The latest messages (oldest first), sent to each joiner. */
export const ZChatHistory = z.object({ type: z.literal('chat/history'), messages: z.array(ZChatEntry) });

export type TChatEntry = z.infer<typeof ZChatEntry>;
