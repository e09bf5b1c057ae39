// The room WebSocket protocol: messages named `domain/action`, shared by the server relay and the web client.
export * from './browser';
export * from './chat';
export * from './control';
export * from './files-out';
export * from './input';
export * from './limits';
export * from './media-frame';
export * from './member';
export * from './messages';
export * from './nickname-key';
export * from './pointing';
export * from './rejoin';
export * from './stream';
export * from './system';
export * from './text';
export * from './ticket';
export * from './voice';
