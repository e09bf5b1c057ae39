// What this browser remembers about entering rooms, so the entry asks only once: the nickname per room (kept), and
// per tab that the entry was done and the share password that opened the room (gone when the tab closes, so a
// password never outlives the visit and never travels in a URL).

const NICKNAME_PREFIX = 'rooms.nickname.';
/** The last nickname chosen anywhere: the default for a room not entered before. */
const LAST_NICKNAME = 'rooms.nickname';
const ENTERED_PREFIX = 'rooms.entered.';
const PASSWORD_PREFIX = 'rooms.share-password.';

/** Storage can be refused (private modes, quotas): then nothing is remembered and nothing breaks. */
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Not remembered; the entry asks again next time.
  }
}

const local = () => localStorage;
const session = () => sessionStorage;

/** The nickname used in this room before, if any. */
export function rememberedNickname(roomId: string): string | null {
  return read(local, NICKNAME_PREFIX + roomId);
}

/** What the nickname field starts with: this room's, else the last one used, else the account name. */
export function suggestedNickname(roomId: string, accountName: string): string {
  return rememberedNickname(roomId) ?? read(local, LAST_NICKNAME) ?? accountName;
}

/** Called once the room accepted the nickname. */
export function rememberEntry(roomId: string, nickname: string): void {
  write(local, NICKNAME_PREFIX + roomId, nickname);
  write(local, LAST_NICKNAME, nickname);
  write(session, ENTERED_PREFIX + roomId, '1');
}

/** Whether this tab already went through the entry (a reload asks nothing again). */
export function enteredInThisTab(roomId: string): boolean {
  return read(session, ENTERED_PREFIX + roomId) === '1';
}

/** Forgets the nickname (the room refused it), so the entry asks for another. */
export function forgetNickname(roomId: string): void {
  write(local, NICKNAME_PREFIX + roomId, null);
  write(session, ENTERED_PREFIX + roomId, null);
}

export function rememberedSharePassword(roomId: string): string | null {
  return read(session, PASSWORD_PREFIX + roomId);
}

export function rememberSharePassword(roomId: string, password: string | null): void {
  write(session, PASSWORD_PREFIX + roomId, password);
}
