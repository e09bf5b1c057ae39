// Voice in real Chromium against the real server, with Chromium's fake microphone (a beep): a guest holds
// push-to-talk, the microphone is asked for only then, the owner's member list shows who talks and the owner's page
// plays the guest's voice; the owner mutes the guest for everyone, then turns voice off for the room; a listener
// mutes a speaker for themself; the open mic; all in English and in Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESS_ME_PAGE, passEntry, startSharedRoom, type TSharedRoom } from './room-support';
import { type Page, screenshots } from './support';

let shared: TSharedRoom;

beforeAll(async () => {
  shared = await startSharedRoom({
    html: PRESS_ME_PAGE,
    name: 'voice',
    chromiumArgs: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
});

afterAll(async () => {
  await shared?.close();
});

/** The loudest of others' voices this page played over the last second (RMS, 0..1). */
const heard = async (page: Page) =>
  Number(await page.getByTestId('voice-controls').getAttribute('data-heard'));
const talkButton = (page: Page) => page.getByTestId('voice-talk');
/** The member row of `nickname` on `page`. */
const row = (page: Page, nickname: string) =>
  page.getByTestId('member').filter({ has: page.getByTestId('member-name').filter({ hasText: nickname }) });
const speaking = (page: Page, nickname: string) =>
  row(page, nickname).getByTestId('member-voice').getAttribute('data-speaking');

describe('voice', () => {
  it('lets a guest talk with push-to-talk, heard by the owner, whom the owner can mute and turn voice off for', async () => {
    const { context: ownerContext, page: ownerPage } = await shared.ownerInRoom();
    const guest = await shared.guestInRoom('Vera');
    const { page } = guest;
    const talk = talkButton(page);
    await expect.poll(() => talk.isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await talk.getAttribute('aria-label')).toBe('Hold to talk (or hold V)');
    // The microphone is asked for only when the guest first talks.
    expect(await talk.getAttribute('data-mic')).toBe('off');

    await talk.hover();
    await page.mouse.down();
    await expect.poll(() => talk.getAttribute('data-mic'), { timeout: 15_000 }).toBe('on');
    await expect.poll(() => talk.getAttribute('data-talking'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('true');
    // The fake microphone beeps: the owner's page plays it.
    await expect.poll(() => heard(ownerPage), { timeout: 20_000, interval: 200 }).toBeGreaterThan(0.005);
    await screenshots(ownerPage, 'room-voice-owner');
    await page.mouse.up();
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('false');

    // Held V talks too, away from text fields and the picture.
    await page.getByTestId('room-title').click();
    await page.keyboard.down('v');
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('true');
    await page.keyboard.up('v');
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('false');

    // The owner mutes Vera for everyone: her button says so and sends nothing.
    await row(ownerPage, 'Vera').getByRole('button', { name: 'Mute Vera for everyone' }).click();
    await expect
      .poll(() => talk.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('The room owner muted you');
    expect(await talk.isDisabled()).toBe(true);
    await row(ownerPage, 'Vera').getByRole('button', { name: 'Let Vera talk again' }).click();
    await expect.poll(() => talk.isEnabled(), { timeout: 15_000 }).toBe(true);

    // The open mic talks without holding anything, as long as the microphone hears something.
    await page.getByTestId('voice-settings').click();
    await page.getByTestId('voice-open-mic').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => heard(ownerPage), { timeout: 20_000, interval: 200 }).toBeGreaterThan(0.005);
    // Muted for the owner alone, Vera is no longer played on the owner's page.
    await row(ownerPage, 'Vera').getByRole('button', { name: 'Mute Vera for me' }).click();
    await expect.poll(() => heard(ownerPage), { timeout: 10_000, interval: 200 }).toBeLessThan(0.001);
    expect(await speaking(ownerPage, 'Vera')).toBe('true');
    await row(ownerPage, 'Vera').getByRole('button', { name: 'Hear Vera again' }).click();

    // Voice off for the room: nobody can talk.
    await ownerPage.getByTestId('voice-settings').click();
    await ownerPage.getByTestId('voice-enabled').click();
    await ownerPage.keyboard.press('Escape');
    await expect
      .poll(() => talk.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('Voice is turned off in this room');
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('false');
    await screenshots(page, 'room-voice-off-guest');
    await ownerPage.getByTestId('voice-settings').click();
    await ownerPage.getByTestId('voice-enabled').click();
    await ownerPage.keyboard.press('Escape');
    await page.getByTestId('voice-settings').click();
    await page.getByTestId('voice-open-mic').click();
    await page.keyboard.press('Escape');

    // In Chinese: the same push-to-talk, heard by the owner.
    await guest.context.addCookies([{ name: 'language', value: 'zh-CN', url: shared.kit.server.url }]);
    await page.reload();
    await passEntry(page, 'Vera');
    const zhTalk = talkButton(page);
    await expect
      .poll(() => zhTalk.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('按住说话（或按住 V 键）');
    await zhTalk.hover();
    await page.mouse.down();
    await expect.poll(() => speaking(ownerPage, 'Vera'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => heard(ownerPage), { timeout: 20_000, interval: 200 }).toBeGreaterThan(0.005);
    await screenshots(page, 'room-voice-guest-zh');
    await page.mouse.up();

    await guest.context.close();
    await ownerContext.close();
  });
});
