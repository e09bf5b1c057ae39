/** The slice of a pino/Fastify logger the engine writes to. */
export interface TEngineLogger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export const silentLogger: TEngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
