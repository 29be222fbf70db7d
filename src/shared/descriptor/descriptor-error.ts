/**
 * A descriptor or schema that cannot be used: names the file, the JSON path inside it and the
 * reason, so whoever edits it can fix it without reading the engine.
 */
export class DescriptorError extends Error {
  override name = 'DescriptorError';
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly reason: string,
  ) {
    super(`${file}${jsonPath ? ` at ${jsonPath}` : ''}: ${reason}`);
  }
}
