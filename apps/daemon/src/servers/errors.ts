/** A refusal the user should see as-is (websocket `daemon error`, HTTP error body). */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly httpStatus = 400,
  ) {
    super(message);
  }
}

export const LOCK_BUSY =
  'another power action is currently being processed for this server, please try again later';
