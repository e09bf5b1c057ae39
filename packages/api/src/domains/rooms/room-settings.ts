// A room's settings against its owner's plan: the checks at creation, and the clamp at launch (a plan can shrink
// after a room was created, e.g. when a Pro subscription lapses; the room then runs within Free's limits).
import type { Plan, Room } from '@rooms/db';
import { AppError } from '../../errors';
import type { TRoomLaunchSpec } from '../../services/room-engine';

/** A room's defaults: auto-close on after 20 minutes without a connection, data not kept. */
export const ROOM_DEFAULTS = { autoClose: true, autoCloseMinutes: 20, keepData: false } as const;

/**
 * The picture a new room gets unless its owner chooses another (the spec names none): 720p at 30 fps and 3 Mbit/s
 * shows a web page or a video sharply and reaches a phone on an ordinary connection, where a plan's maximum
 * (Pro: 1080p at 60 fps and 8 Mbit/s) costs every viewer nearly three times the bandwidth. Each value is offered in
 * the create dialog's lists.
 */
export const ROOM_STREAM_DEFAULTS = {
  width: 1280,
  height: 720,
  maxFrameRate: 30,
  videoBitrateKbps: 3000,
} as const;

type TStreamPlan = Pick<
  Plan,
  'maxWidth' | 'maxHeight' | 'maxFrameRate' | 'maxBitrateKbps' | 'maxConnections'
>;

/**
 * A new room's stream settings on this plan: the defaults above, or the plan's own maximum where the plan allows
 * less (a plan smaller than 720p in either direction keeps its own size rather than a squashed 720p); connections
 * are a ceiling that costs nothing until people come, so a room takes all the plan allows.
 */
export function streamDefaultsFor(plan: TStreamPlan) {
  const fits = ROOM_STREAM_DEFAULTS.width <= plan.maxWidth && ROOM_STREAM_DEFAULTS.height <= plan.maxHeight;
  return {
    width: fits ? ROOM_STREAM_DEFAULTS.width : plan.maxWidth,
    height: fits ? ROOM_STREAM_DEFAULTS.height : plan.maxHeight,
    maxFrameRate: Math.min(ROOM_STREAM_DEFAULTS.maxFrameRate, plan.maxFrameRate),
    videoBitrateKbps: Math.min(ROOM_STREAM_DEFAULTS.videoBitrateKbps, plan.maxBitrateKbps),
    maxConnections: plan.maxConnections,
  };
}

/** A room's settings that its owner's plan bounds: asked for at creation, in force at launch. */
export interface TRoomSettings {
  maxConnections: number;
  width: number;
  height: number;
  maxFrameRate: number;
  videoBitrateKbps: number;
  keepData: boolean;
  autoClose: boolean;
  autoCloseMinutes: number;
}

/** Throws the first limit the request exceeds, naming it. */
export function checkAgainstPlan(plan: Plan, requested: TRoomSettings): void {
  if (requested.maxConnections > plan.maxConnections) {
    throw new AppError('PLAN_MAX_CONNECTIONS', { args: [plan.maxConnections] });
  }
  if (requested.width > plan.maxWidth || requested.height > plan.maxHeight) {
    throw new AppError('PLAN_MAX_RESOLUTION', { args: [plan.maxHeight, plan.maxWidth, plan.maxHeight] });
  }
  if (requested.maxFrameRate > plan.maxFrameRate) {
    throw new AppError('PLAN_MAX_FRAME_RATE', { args: [plan.maxFrameRate] });
  }
  if (requested.videoBitrateKbps > plan.maxBitrateKbps) {
    throw new AppError('PLAN_MAX_BITRATE', { args: [plan.maxBitrateKbps] });
  }
  if (
    !plan.canConfigureAutoClose &&
    (requested.autoClose !== ROOM_DEFAULTS.autoClose ||
      requested.autoCloseMinutes !== ROOM_DEFAULTS.autoCloseMinutes)
  ) {
    throw new AppError('PLAN_AUTO_CLOSE_FIXED');
  }
  if (requested.keepData && !plan.persistentStorage) throw new AppError('PLAN_NO_KEEP_DATA');
}

/** The room's settings bounded by the plan its owner holds now. */
export function effectiveSettings(room: Room, plan: Plan): TRoomSettings {
  const autoCloseConfigurable = plan.canConfigureAutoClose;
  return {
    maxConnections: Math.min(room.maxConnections, plan.maxConnections),
    width: Math.min(room.width, plan.maxWidth),
    height: Math.min(room.height, plan.maxHeight),
    maxFrameRate: Math.min(room.maxFrameRate, plan.maxFrameRate),
    videoBitrateKbps: Math.min(room.videoBitrateKbps, plan.maxBitrateKbps),
    keepData: room.keepData && plan.persistentStorage,
    autoClose: autoCloseConfigurable ? room.autoClose : ROOM_DEFAULTS.autoClose,
    autoCloseMinutes: autoCloseConfigurable ? room.autoCloseMinutes : ROOM_DEFAULTS.autoCloseMinutes,
  };
}

/** Where the browser opens: the room's own address for 'url' images, else the image's. */
export function startUrlOf(room: Room): string {
  if (room.image.kind === 'url' && room.startUrl) return room.startUrl;
  return room.image.startUrl ?? 'about:blank';
}

export function launchSpecOf(room: Room, plan: Plan): TRoomLaunchSpec {
  const settings = effectiveSettings(room, plan);
  return {
    roomId: room.id,
    width: settings.width,
    height: settings.height,
    maxFrameRate: settings.maxFrameRate,
    videoBitrateKbps: settings.videoBitrateKbps,
    startUrl: startUrlOf(room),
    keepData: settings.keepData,
    autoCloseMs: settings.autoClose ? settings.autoCloseMinutes * 60_000 : null,
  };
}
