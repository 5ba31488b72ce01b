export { LoginPage } from './LoginPage.tsx';
export { CheckpointPage } from './CheckpointPage.tsx';
export { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
export { ResetPasswordPage } from './ResetPasswordPage.tsx';
export { AuthNotFound } from './AuthNotFound.tsx';
