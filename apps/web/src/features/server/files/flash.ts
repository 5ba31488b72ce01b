/** Flash keys of the file manager and the file editor (spec 001 §8). */
export const FILES_FLASH = 'files';
export const DIRECTORY_MODAL_FLASH = 'files:directory-modal';
/** The file editor's messages (save errors). */
export const FILE_VIEW_FLASH = 'files:view';
