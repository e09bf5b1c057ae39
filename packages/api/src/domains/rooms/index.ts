// Rooms: finding a room for its owner or a visitor, its settings against the owner's plan, starting and stopping
// its browser, the share password and its budget of wrong tries, and the dashboards' list cache. Procedures,
// the room socket's ticket and the server's start-up call these; the rules live nowhere else.
export * from './public-square';
export * from './room-access';
export * from './room-config';
export * from './room-creation';
export * from './room-lifecycle';
export * from './room-list-cache';
export * from './room-reports';
export * from './room-settings';
export * from './room-state';
export * from './share-access';
export * from './share-password';
export * from './share-password-budget';
export * from './share-room';
