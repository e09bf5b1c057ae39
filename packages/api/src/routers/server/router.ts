import { router } from '../../trpc';
import { getServerState } from './get-server-state';
import { getSiteInfo } from './get-site-info';

export const serverRouter = router({ getServerState, getSiteInfo });
