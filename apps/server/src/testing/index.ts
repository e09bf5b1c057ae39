// The server's test kit as other workspaces import it (`@rooms/server/testing`): the browser journeys start the real
// server, write accounts and rooms into its database, call its REST API and open its pages through this entry only.
// The server's own tests import the kit's modules from this folder directly.
export { QUIET_CHROMIUM_ARGS } from '../rooms/engine/room-browser';
export { createAdmin, impersonate } from './admin-accounts';
export { rest, solveCaptcha, type TRestResult, uniqueCaller } from './rest-client';
export { createOwner, type TTestOwner, uniqueRoomName } from './room-test-users';
export { startTestPages, type TTestPages, testFileBytes } from './rooms/test-pages';
export { killServerProcesses, startServerProcess, type TServerProcess } from './server-processes';
export { storedRoom, storedUser, type TStoredRoomOptions, type TStoredUser } from './stored-accounts';
export { makeTestCertificate, type TTestCertificate } from './test-certificates';
export { startTestServer, type TTestServer, type TTestServerOptions } from './test-server';
export { canOpenViewerNamespace, openViewerNamespace, type TViewerNamespace } from './viewer-namespace';
