// The signed-in shell is a chunk of its own, so the sign-in screens do not download it.
export { SignedInLayout } from './SignedInLayout.tsx';
export { SignedInNotFound } from './SignedInNotFound.tsx';

/**
 * The admin area's loader lives here, not in the router: the entry chunk that the sign-in page
 * downloads would otherwise carry the list of the admin chunk's files to preload (its 150 KB budget
 * is full). The admin is only reached inside the signed-in shell: on a first visit straight to
 * /admin its chunk starts loading once the shell's has arrived.
 */
export const loadAdminArea = () => import('../features/admin/index.ts');
