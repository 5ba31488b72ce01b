/** Flash key of the Network screen (spec 001 §8). */
export const NETWORK_FLASH = 'server:network';
