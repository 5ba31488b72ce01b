// The signed-in shell is a chunk of its own, so the sign-in screens do not download it.
export { SignedInLayout } from './SignedInLayout.tsx';
export { SignedInNotFound } from './SignedInNotFound.tsx';
