// The create-room dialog's form: its fields as typed, the empty form, the name's check, and the input for
// room.createRoom built from it (settings the plan does not offer are left to the server's defaults).
import { ROOM_NAME_PATTERN } from '@rooms/api/client';
import type { TCreateRoomInput } from '../../../lib/room/room-types';

export interface TForm {
  name: string;
  remark: string;
  password: string;
  isPublic: boolean;
  region: string;
  image: string;
  startUrl: string;
  resolution: string;
  maxFrameRate: string;
  videoBitrateKbps: string;
  maxConnections: string;
  keepData: boolean;
  autoClose: boolean;
  autoCloseMinutes: string;
}

export const EMPTY: TForm = {
  name: '',
  remark: '',
  password: '',
  isPublic: false,
  region: '',
  image: '',
  startUrl: '',
  resolution: '',
  maxFrameRate: '',
  videoBitrateKbps: '',
  maxConnections: '',
  keepData: false,
  autoClose: true,
  autoCloseMinutes: '20',
};

/** What is wrong with the name as typed: nothing yet, empty (told once a create was tried), or against the rule. */
export function nameIssue(name: string, submitted: boolean): 'empty' | 'rule' | null {
  const trimmed = name.trim();
  if (!trimmed) return submitted ? 'empty' : null;
  return ROOM_NAME_PATTERN.test(trimmed) ? null : 'rule';
}

/** What the plan lets this form set besides the stream's settings. */
interface TPlanOptions {
  persistentStorage: boolean;
  canConfigureAutoClose: boolean;
}

export function createRoomInput(
  form: TForm,
  { plan, imageKind }: { plan: TPlanOptions | undefined; imageKind: string | undefined },
): TCreateRoomInput {
  const [width, height] = form.resolution.split('x').map(Number);
  return {
    name: form.name.trim(),
    remark: form.remark.trim(),
    password: form.password || null,
    isPublic: form.isPublic,
    region: form.region,
    image: form.image,
    startUrl: imageKind === 'url' ? form.startUrl.trim() : null,
    width: width || undefined,
    height: height || undefined,
    maxFrameRate: Number(form.maxFrameRate) || undefined,
    videoBitrateKbps: Number(form.videoBitrateKbps) || undefined,
    maxConnections: Number(form.maxConnections) || undefined,
    ...(plan?.persistentStorage ? { keepData: form.keepData } : {}),
    ...(plan?.canConfigureAutoClose
      ? { autoClose: form.autoClose, autoCloseMinutes: Number(form.autoCloseMinutes) }
      : {}),
  };
}
