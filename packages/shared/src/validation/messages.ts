/**
 * The user-facing validation messages of the account, auth and search forms (spec §5), word for
 * word. Rules whose message the spec leaves unspecified get a short text of our own.
 */
export const VALIDATION_MESSAGES = {
  currentPasswordRequired: 'You must provide your current password.',
  newPasswordRequired: 'A new password is required.',
  newPasswordMin: 'Your new password should be at least 8 characters in length.',
  passwordConfirmationMismatch: 'Password confirmation does not match the password you entered.',
  emailRequired: 'An email address must be provided.',
  emailInvalid: 'A valid email address must be provided.',
  accountPasswordRequired: 'You must provide your current account password.',
  twoFactorCodeRequired: 'You must provide an authentication code to continue.',
  twoFactorCodeDigits: 'Authenticator code must be 6 digits.',
  twoFactorDisablePasswordRequired: 'You must provide your current password in order to continue.',
  apiKeyDescriptionRequired: 'A description for this API key is required.',
  apiKeyDescriptionMin: 'The description must be at least 4 characters.',
  searchMin: 'Please enter at least three characters to begin searching.',
  loginUserRequired: 'A username or email must be provided.',
  loginPasswordRequired: 'Please enter your account password.',
  resetEmailRequired: 'A valid email address must be provided to continue.',
  resetPasswordRequired: 'A new password is required.',
  resetPasswordMin: 'Your new password should be at least 8 characters in length.',
  resetConfirmationMismatch: 'Your new password does not match.',
  checkpointCodeRequired: 'An authentication code is required.',
  checkpointRecoveryRequired: 'A recovery code is required.',
} as const;

/** Password minimum length (spec §9). */
export const PASSWORD_MIN_LENGTH = 8;
/** Two-factor code length (spec §9). */
export const TWO_FACTOR_CODE_LENGTH = 6;
/** API key description minimum length (spec §9). */
export const API_KEY_DESCRIPTION_MIN = 4;
/** Search term minimum length (spec §9). */
export const SEARCH_MIN_LENGTH = 3;
