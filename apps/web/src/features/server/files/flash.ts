/** Flash keys of the file manager (spec 001 §8). `files:view` belongs to the editor. */
export const FILES_FLASH = 'files';
export const DIRECTORY_MODAL_FLASH = 'files:directory-modal';
