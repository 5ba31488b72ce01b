/** Flash keys of the Backups screen (spec 001 §8): the list and the create modal. */
export const BACKUPS_FLASH = 'backups';
export const BACKUPS_CREATE_FLASH = 'backups:create';
