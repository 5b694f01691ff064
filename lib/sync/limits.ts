/** Sync's numbers the pages show (kept apart, so showing them loads none of sync's code). */

/** The shortest passphrase the first device may choose (characters). */
export const MIN_PASSPHRASE_LENGTH = 10;
