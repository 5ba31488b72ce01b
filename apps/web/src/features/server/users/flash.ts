/** Flash keys of the Users screen (spec 001 §8): the list and the create/edit modal. */
export const USERS_FLASH = 'users';
export const USER_EDIT_FLASH = 'user:edit';
