import { router } from '../../trpc';
import { getServerState } from './get-server-state';

export const serverRouter = router({ getServerState });
