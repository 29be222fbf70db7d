/** The letters and digits of a blind code: none that reads as another (no 0/O, 1/I/L). */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters after the round prefix. */
export const CODE_LENGTH = 5;

/**
 * An entry's blind code in an exam: the round's prefix and five characters of {@link CODE_ALPHABET}
 * drawn by `random` (a number in [0, 1) per call). Unique in its exam by storage, not by chance.
 *
 * @example blindCode(1, () => 0) // 'R1-22222'
 */
export function blindCode(round: number, random: () => number): string {
  let tail = '';
  for (let i = 0; i < CODE_LENGTH; i++) tail += CODE_ALPHABET[Math.floor(random() * CODE_ALPHABET.length)];
  return `R${round}-${tail}`;
}

/** Whether a text is a blind code's shape. */
export const isBlindCode = (text: string): boolean => new RegExp(`^R\\d+-[${CODE_ALPHABET}]{${CODE_LENGTH}}$`).test(text);
