/** Flash keys of the Databases screen (spec 001 §8): the list, the create and delete modals, the details modal. */
export const DATABASES_FLASH = 'databases';
export const DATABASE_CREATE_FLASH = 'database:create';
export const DATABASE_DELETE_FLASH = 'database:delete';
export const DATABASE_DETAILS_FLASH = 'database-connection-modal';
