// The room WebSocket protocol: messages named `domain/action`, shared by the server relay and the web client.
export * from './input';
