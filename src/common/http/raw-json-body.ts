/** A JSON body left unparsed, for its route to parse off the event loop. */
export class RawJsonBody {
  constructor(readonly bytes: Buffer) {}
}
