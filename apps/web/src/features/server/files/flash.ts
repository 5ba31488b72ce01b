/** Flash keys of the file manager and the file editor (spec 001 §8). */
export const FILES_FLASH = 'files';
export const DIRECTORY_MODAL_FLASH = 'files:directory-modal';
/** The file editor's messages (save errors). */
export const FILE_VIEW_FLASH = 'files:view';
/** Download from URL: its errors stay inside its modal while it is open. */
export const PULL_MODAL_FLASH = 'files:pull-modal';
