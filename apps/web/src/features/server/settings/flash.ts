/** Flash key of the server settings screen (spec 001 §8). */
export const SETTINGS_FLASH = 'settings';
