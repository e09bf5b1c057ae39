import { router } from '../../trpc';
import { createRoom } from './create-room';
import { deleteRoom } from './delete-room';
import { getRoomConfig } from './get-room-config';
import { getRoomImage } from './get-room-image';
import { getRoomInfo } from './get-room-info';
import { getRoomList } from './get-room-list';
import { getRoomRegion } from './get-room-region';
import { restartRoom } from './restart-room';
import { startRoom } from './start-room';
import { stopRoom } from './stop-room';
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
});
