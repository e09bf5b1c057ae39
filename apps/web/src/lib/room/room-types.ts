import type { trpcClient } from '../trpc';

type TRoomClient = typeof trpcClient.room;

export type TRoomListItem = Awaited<ReturnType<TRoomClient['getRoomList']['query']>>[number];
export type TRoomInfo = Awaited<ReturnType<TRoomClient['getRoomInfo']['query']>>;
export type TRoomConfig = Awaited<ReturnType<TRoomClient['getRoomConfig']['query']>>;
export type TRoomState = TRoomListItem['state'];
export type TRegionReply = Awaited<ReturnType<TRoomClient['getRoomRegion']['query']>>;
export type TImageReply = Awaited<ReturnType<TRoomClient['getRoomImage']['query']>>;
export type TCreateRoomInput = Parameters<TRoomClient['createRoom']['mutate']>[0];

/** States that change by themselves: the dashboard polls updateState while a room is in one. */
export const TRANSITIONAL_STATES: readonly TRoomState[] = ['starting', 'stopping'];
