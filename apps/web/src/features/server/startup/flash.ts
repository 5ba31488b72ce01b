/** Flash keys of the startup screen (spec 001 §8): one area per variable, one for the image. */
export const variableFlashKey = (envVariable: string) => `server:startup:${envVariable}`;
export const IMAGE_FLASH = 'startup:image';
/** The start-up command choice (our extension, issue 17). */
export const COMMAND_FLASH = 'startup:command';
