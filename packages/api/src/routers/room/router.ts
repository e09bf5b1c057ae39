import { router } from '../../trpc';
import { createRoom } from './create-room';
import { deleteRoom } from './delete-room';
import { getMainDomain, getShareDomain } from './domains';
import { getKnocks } from './get-knocks';
import { getPublicRoom } from './get-public-room';
import { getPublicRoomConfig } from './get-public-room-config';
import { getRoomConfig } from './get-room-config';
import { getRoomEntry } from './get-room-entry';
import { getRoomImage } from './get-room-image';
import { getRoomInfo } from './get-room-info';
import { getRoomInfoShare } from './get-room-info-share';
import { getRoomList } from './get-room-list';
import { getRoomRegion } from './get-room-region';
import { getShareInvite } from './get-share-invite';
import { reportRoom } from './report-room';
import { restartRoom } from './restart-room';
import { startRoom } from './start-room';
import { stopRoom } from './stop-room';
import { updateRoomShare } from './update-room-share';
import { updateState } from './update-state';

export const roomRouter = router({
  getRoomList,
  getRoomInfo,
  getRoomConfig,
  getRoomRegion,
  getRoomImage,
  createRoom,
  deleteRoom,
  startRoom,
  stopRoom,
  restartRoom,
  updateState,
  getKnocks,
  // Sharing and the public square
  getRoomEntry,
  getPublicRoom,
  getRoomInfo_share: getRoomInfoShare,
  getPublicRoomConfig,
  getShareInvite,
  getShareDomain,
  getMainDomain,
  updateRoomShare,
  reportRoom,
});
