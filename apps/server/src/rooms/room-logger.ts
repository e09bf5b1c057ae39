/** The slice of a pino/Fastify logger the room side (engine, media, profiles) writes to. */
export interface TRoomLogger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export const silentLogger: TRoomLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
