// Every JSON message of the room WebSocket, by direction. Binary messages are media frames (./media-frame.ts) and
// members' voice (./voice.ts).
import { z } from 'zod';
import {
  ZBrowserBack,
  ZBrowserFind,
  ZBrowserForward,
  ZBrowserFound,
  ZBrowserNavigate,
  ZBrowserReload,
  ZBrowserTabActivate,
  ZBrowserTabClose,
  ZBrowserTabOpen,
  ZBrowserTabs,
} from './browser';
import { ZChatHistory, ZChatMessage, ZChatSend } from './chat';
import {
  ZControlCancel,
  ZControlGrant,
  ZControlRelease,
  ZControlRequest,
  ZControlState,
  ZControlTake,
} from './control';
import {
  ZFileAccepted,
  ZFileBegin,
  ZFileCancel,
  ZFileChunk,
  ZFileDelivered,
  ZFileProgress,
  ZFileRefused,
  ZFileRequested,
} from './files-in';
import { ZClipboardCopied, ZDownloadOffered, ZDownloadRefused } from './files-out';
import { ZCompositionInput, ZKeyInput, ZPointerInput, ZTextInput, ZWheelInput } from './input';
import {
  ZKnockAdmitted,
  ZKnockAnswer,
  ZKnockPending,
  ZKnockTrust,
  ZKnockTrusted,
  ZKnockWaiting,
} from './knock';
import {
  ZMemberBan,
  ZMemberJoin,
  ZMemberJoined,
  ZMemberKick,
  ZMemberKicked,
  ZMemberLeft,
  ZMemberList,
  ZMemberReadmit,
  ZMemberRemovals,
} from './member';
import { ZPointerMove, ZPointerShown, ZReactionSend, ZReactionShown } from './pointing';
import { ZStreamAck, ZStreamChoose, ZStreamConfig, ZStreamLayerState, ZStreamStats } from './stream';
import { ZSystemError, ZSystemPing, ZSystemPong, ZSystemRoomEnded } from './system';
import { ZVoiceEnable, ZVoiceMute, ZVoiceState, ZVoiceTalk } from './voice';

export const ZClientMessage = z.discriminatedUnion('type', [
  ZMemberJoin,
  ZMemberKick,
  ZMemberBan,
  ZMemberReadmit,
  ZKnockAnswer,
  ZKnockTrust,
  ZControlRequest,
  ZControlCancel,
  ZControlGrant,
  ZControlRelease,
  ZControlTake,
  ZChatSend,
  ZPointerMove,
  ZReactionSend,
  ZVoiceTalk,
  ZVoiceMute,
  ZVoiceEnable,
  ZBrowserNavigate,
  ZBrowserBack,
  ZBrowserForward,
  ZBrowserReload,
  ZBrowserTabOpen,
  ZBrowserTabActivate,
  ZBrowserTabClose,
  ZBrowserFind,
  ZPointerInput,
  ZWheelInput,
  ZKeyInput,
  ZTextInput,
  ZCompositionInput,
  ZStreamAck,
  ZStreamChoose,
  ZFileBegin,
  ZFileChunk,
  ZFileCancel,
  ZSystemPing,
]);

export const ZServerMessage = z.discriminatedUnion('type', [
  ZMemberList,
  ZMemberJoined,
  ZMemberLeft,
  ZMemberKicked,
  ZMemberRemovals,
  ZKnockWaiting,
  ZKnockAdmitted,
  ZKnockPending,
  ZKnockTrusted,
  ZControlState,
  ZChatMessage,
  ZChatHistory,
  ZPointerShown,
  ZReactionShown,
  ZVoiceState,
  ZBrowserTabs,
  ZBrowserFound,
  ZDownloadOffered,
  ZDownloadRefused,
  ZClipboardCopied,
  ZFileRequested,
  ZFileAccepted,
  ZFileProgress,
  ZFileDelivered,
  ZFileRefused,
  ZStreamConfig,
  ZStreamStats,
  ZStreamLayerState,
  ZSystemPong,
  ZSystemError,
  ZSystemRoomEnded,
]);

export type TClientMessage = z.infer<typeof ZClientMessage>;
/** What a client writes: defaults (modifiers, buttons…) may be left out. */
export type TClientMessageInput = z.input<typeof ZClientMessage>;
export type TServerMessage = z.infer<typeof ZServerMessage>;
export type TClientMessageType = TClientMessage['type'];
export type TServerMessageType = TServerMessage['type'];
/** One server message by its type, e.g. `TServerMessageOf<'control/state'>`. */
export type TServerMessageOf<K extends TServerMessageType> = Extract<TServerMessage, { type: K }>;
export type TClientMessageOf<K extends TClientMessageType> = Extract<TClientMessage, { type: K }>;

/** Messages only the current controller may send. */
export function isControllerOnly(message: TClientMessage): boolean {
  return message.type.startsWith('input/') || message.type.startsWith('browser/');
}
